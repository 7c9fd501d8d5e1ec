import { SaccadeError } from '@saccade/spec';
import type { z } from 'zod';

const marker = 'saccade.error.config';
const symbol = Symbol.for(marker);

/** A config file or flag set that does not fit the schema: names each bad key and what it expects. */
export class ConfigError extends SaccadeError {
  private readonly [symbol] = true;
  readonly source: string;
  readonly issues: string[];

  constructor({ source, issues }: { source: string; issues: string[] }) {
    super({ name: 'Saccade_ConfigError', message: `Invalid configuration in ${source}:\n${issues.map((issue) => `  - ${issue}`).join('\n')}` });
    this.source = source;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return SaccadeError.hasMarker(error, marker);
  }
}

/** One line per zod issue: the dotted key path, then what was expected and what came. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') return `${path}: unknown key(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    return `${path}: ${issue.message}`;
  });
}
