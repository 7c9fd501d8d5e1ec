import { SaccadeError } from './saccade-error';

const name = 'Saccade_EnvAlreadyRegisteredError';
const marker = 'saccade.error.env-already-registered';
const symbol = Symbol.for(marker);

/** `registerEnv` was called twice with one id without `{override: true}`. */
export class EnvAlreadyRegisteredError extends SaccadeError {
  private readonly [symbol] = true;

  readonly id: string;

  constructor({ id, cause }: { id: string; cause?: unknown }) {
    super({
      name,
      message: `An env is already registered with id "${id}": pick another id or version, or pass {override: true} to replace it.`,
      cause,
    });
    this.id = id;
  }

  static override isInstance(error: unknown): error is EnvAlreadyRegisteredError {
    return SaccadeError.hasMarker(error, marker);
  }
}
