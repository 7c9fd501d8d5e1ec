/**
 * The promise's outcome, or a rejection with the signal's reason as soon as the signal aborts (at
 * once when it already has): for work that cannot itself be cancelled, such as a call waiting for a
 * limiter slot or a model's turn, so that its caller stops waiting. The work itself runs on; its
 * late outcome is dropped. Without a signal, the promise itself.
 *
 * @example
 * const reply = await untilAborted(limiter(() => request(body)), signal);
 */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
