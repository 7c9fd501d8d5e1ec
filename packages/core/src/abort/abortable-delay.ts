/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as soon as it aborts (at
 * once when it already has): a retry's back-off that a cancelled episode or request does not sit
 * out. `ms <= 0` resolves without a timer.
 *
 * @example
 * await abortableDelay(250 * 2 ** attempt, signal);
 */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
