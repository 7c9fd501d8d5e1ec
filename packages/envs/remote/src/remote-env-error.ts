import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_RemoteEnvError';
const marker = 'saccade.error.remote-env';
const symbol = Symbol.for(marker);

/**
 * A remote env server could not be reached, refused a call, or lost the session: says which
 * server, which call, what came back (the HTTP status, when one did) and whether the episode is lost.
 */
export class RemoteEnvError extends SaccadeError {
  private readonly [symbol] = true;

  /** The server the call went to. */
  readonly url: string;
  /** The HTTP status the server answered, when it answered. */
  readonly statusCode?: number;

  constructor({ url, message, statusCode, cause }: { url: string; message: string; statusCode?: number; cause?: unknown }) {
    super({ name, message, cause });
    this.url = url;
    if (statusCode !== undefined) this.statusCode = statusCode;
  }

  static override isInstance(error: unknown): error is RemoteEnvError {
    return SaccadeError.hasMarker(error, marker);
  }
}
