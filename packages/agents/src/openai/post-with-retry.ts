import { abortableDelay } from '@saccade/core';
import { TimeoutError } from '@saccade/spec';
import { AgentRequestError } from '../errors/agent-request-error';

/**
 * How postJsonWithRetry retries: how often, how long it backs off, and how long one attempt may
 * take.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry; doubles each time (with jitter). */
  retryDelayMs: number;
  /** Cap on one backoff delay (a server's Retry-After is honoured up to 60 s). */
  maxRetryDelayMs: number;
  /** Time limit of one attempt (connect, send, and read the whole body). */
  timeoutMs: number;
}

/**
 * One JSON POST for postJsonWithRetry: the request, its retry policy, an abort signal, and hooks
 * for jitter and logging.
 */
export interface PostJsonOptions extends RetryPolicy {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  /** Source of jitter in [0, 1) (tests pass a constant). */
  random?: () => number;
  /** Called before each retry wait, for logs. */
  onRetry?: (event: { attempt: number; delayMs: number; reason: string }) => void;
}

/**
 * The response postJsonWithRetry ended with (its status and body text, which may be an error status
 * that is not worth retrying) and how many attempts it took.
 */
export interface PostJsonResult {
  status: number;
  text: string;
  attempts: number;
}

const EXCERPT_LENGTH = 300;
/** The longest Retry-After honoured; a server asking for more is retried after this. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth retrying: timeouts, conflicts, rate limits and server errors. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The delay a response asks for via `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with equal jitter: half the delay fixed, half random. */
export function backoffDelayMs(retry: number, policy: Pick<RetryPolicy, 'retryDelayMs' | 'maxRetryDelayMs'>, random: () => number): number {
  const base = Math.min(policy.maxRetryDelayMs, policy.retryDelayMs * 2 ** (retry - 1));
  return base / 2 + (random() * base) / 2;
}

export function excerpt(text: string, length = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}… (${text.length} chars)` : flat;
}

/**
 * POSTs a JSON body and returns the 2xx response text. Retries on 408/409/429/5xx, connection
 * errors and timeouts with exponential backoff and jitter, honouring Retry-After; throws an
 * `AgentRequestError` after the last attempt or at once for other statuses. Aborting `signal`
 * cancels the request in flight and any backoff wait and rejects with the signal's reason.
 */
export async function postJsonWithRetry(options: PostJsonOptions): Promise<PostJsonResult> {
  const { url, headers, body, signal, maxRetries, timeoutMs, random = Math.random } = options;
  const attemptsAllowed = maxRetries + 1;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    let failure: AgentRequestError;
    let delayFromServer: number | undefined;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: combined });
      const text = await response.text();
      if (response.ok) return { status: response.status, text, attempts: attempt };
      failure = new AgentRequestError({ url, status: response.status, attempts: attempt, failure: 'http-status', bodyExcerpt: excerpt(text) });
      if (!isRetryableStatus(response.status)) throw failure;
      delayFromServer = retryAfterMs(response.headers);
    } catch (error) {
      if (AgentRequestError.isInstance(error)) throw error;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        failure = new AgentRequestError({
          url,
          attempts: attempt,
          failure: 'timeout',
          cause: new TimeoutError({ operation: `POST ${url}`, timeoutMs, cause: error }),
          message: `POST ${url} failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: no complete response within ${timeoutMs} ms (timeoutMs).`,
        });
      } else {
        failure = new AgentRequestError({ url, attempts: attempt, failure: 'connection', cause: error });
      }
    }
    if (attempt >= attemptsAllowed) throw failure;
    const delayMs =
      delayFromServer !== undefined ? Math.min(MAX_RETRY_AFTER_MS, delayFromServer) : backoffDelayMs(attempt, options, random);
    options.onRetry?.({ attempt, delayMs, reason: failure.message });
    await abortableDelay(delayMs, signal);
  }
}
