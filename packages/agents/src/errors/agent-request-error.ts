import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_AgentRequestError';
const marker = 'saccade.error.agent-request';
const symbol = Symbol.for(marker);

/** Why a request to a model server failed. */
export type AgentRequestFailure = 'http-status' | 'connection' | 'timeout';

/**
 * A request to a model server failed for good: an HTTP error status, a connection error or a
 * timeout, after every retry allowed. Carries the status, the number of attempts, the URL and the
 * start of the response body, so a user sees what the server said.
 */
export class AgentRequestError extends SaccadeError {
  private readonly [symbol] = true;

  readonly url: string;
  /** HTTP status of the last attempt; undefined when no response came (connection error, timeout). */
  readonly status: number | undefined;
  readonly attempts: number;
  readonly failure: AgentRequestFailure;
  /** The first characters of the last response body ('' when none came). */
  readonly bodyExcerpt: string;

  constructor({
    url,
    status,
    attempts,
    failure,
    bodyExcerpt = '',
    message,
    cause,
  }: {
    url: string;
    status?: number;
    attempts: number;
    failure: AgentRequestFailure;
    bodyExcerpt?: string;
    message?: string;
    cause?: unknown;
  }) {
    const what =
      failure === 'http-status'
        ? `HTTP ${status}${bodyExcerpt.length > 0 ? `: ${bodyExcerpt}` : ''}`
        : failure === 'timeout'
          ? 'the request timed out'
          : `connection error (${describeCause(cause)})`;
    super({
      name,
      message: message ?? `POST ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${what}.`,
      cause,
    });
    this.url = url;
    this.status = status;
    this.attempts = attempts;
    this.failure = failure;
    this.bodyExcerpt = bodyExcerpt;
  }

  static override isInstance(error: unknown): error is AgentRequestError {
    return SaccadeError.hasMarker(error, marker);
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as { cause?: unknown }).cause;
  const innerText = inner instanceof Error ? `: ${(inner as { code?: string }).code ?? inner.message}` : '';
  return `${cause.message}${innerText}`;
}
