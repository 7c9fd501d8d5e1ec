import { ServerRequestError } from './server-request-error';

/**
 * Runs `work` with a time limit: past `timeoutMs` the signal is aborted and the request is
 * answered 504. Work that ignores its signal finishes in the background; its locks stay held
 * until then, so later requests for the same ids get 409 rather than racing it.
 */
export async function withDeadline<T>(timeoutMs: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ServerRequestError({ statusCode: 504, message: `${what} did not finish within the request timeout of ${timeoutMs} ms.` });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const running = work(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
