import { SaccadeError } from '@saccade/spec';
import { UsageError } from './usage-error';

const marker = 'saccade.error.plugin';
const symbol = Symbol.for(marker);

/**
 * A plug-in package (`--plugin`, `plugins:`, `SACCADE_PLUGINS`) cannot be used: not found, no
 * `"saccade"` field, an export missing, or an env or tool that fails its conformance checks. The
 * message names the package and what was wrong; the CLI prints it and exits with the usage code.
 */
export class PluginError extends UsageError {
  private readonly [symbol] = true;
  /** The plug-in as it was asked for: a package name or a path. */
  readonly plugin: string;

  constructor({ plugin, message, cause }: { plugin: string; message: string; cause?: unknown }) {
    super({ message: `plugin ${plugin}: ${message}`, cause });
    this.plugin = plugin;
  }

  static override isInstance(error: unknown): error is PluginError {
    return SaccadeError.hasMarker(error, marker);
  }
}
