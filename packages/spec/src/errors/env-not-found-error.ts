import { SaccadeError } from './saccade-error';

const name = 'Saccade_EnvNotFoundError';
const marker = 'saccade.error.env-not-found';
const symbol = Symbol.for(marker);

/** `makeEnv` was asked for an id that nobody registered. */
export class EnvNotFoundError extends SaccadeError {
  private readonly [symbol] = true;

  readonly id: string;
  /** Registered ids close to `id`, best first. */
  readonly suggestions: string[];
  readonly knownIds: string[];

  constructor({ id, knownIds, suggestions = [], cause }: { id: string; knownIds: string[]; suggestions?: string[]; cause?: unknown }) {
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
    const known =
      knownIds.length > 0
        ? ` Registered ids: ${knownIds.slice(0, 20).join(', ')}${knownIds.length > 20 ? `, … (${knownIds.length} in all)` : ''}.`
        : ' No env is registered: import the package that registers it (e.g. @saccade/envs-grid) first.';
    super({ name, message: `No env is registered with id "${id}".${hint}${known}`, cause });
    this.id = id;
    this.suggestions = suggestions;
    this.knownIds = knownIds;
  }

  static override isInstance(error: unknown): error is EnvNotFoundError {
    return SaccadeError.hasMarker(error, marker);
  }
}
