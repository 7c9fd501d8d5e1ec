import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_ServerRequestError';
const marker = 'saccade.error.server-request';
const symbol = Symbol.for(marker);

/**
 * A request a service refuses or could not serve: carries the HTTP status it is answered with
 * (400 bad body, 404 unknown id, 409 busy or wrong state, 413 too large, 503 full, 504 timeout).
 * The remote env client throws it too, with the status the server gave.
 */
export class ServerRequestError extends SaccadeError {
  private readonly [symbol] = true;

  readonly statusCode: number;
  /** The OpenAI-style error code or parameter, when one applies (e.g. `model_not_found`). */
  readonly code?: string;

  constructor({ statusCode, message, code, cause }: { statusCode: number; message: string; code?: string; cause?: unknown }) {
    super({ name, message, cause });
    this.statusCode = statusCode;
    if (code !== undefined) this.code = code;
  }

  static override isInstance(error: unknown): error is ServerRequestError {
    return SaccadeError.hasMarker(error, marker);
  }
}
