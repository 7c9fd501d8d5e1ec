import { describe, expect, it } from 'vitest';
import { abortableDelay } from './abortable-delay';
import { untilAborted } from './until-aborted';

describe('abortableDelay', () => {
  it('resolves after the delay, and at once for none', async () => {
    const started = performance.now();
    await abortableDelay(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    await expect(abortableDelay(0)).resolves.toBeUndefined();
    await expect(abortableDelay(-5)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when it aborts during the wait, or had already", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = abortableDelay(60_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stopped')), 5);
    await expect(waiting).rejects.toThrow('stopped');
    expect(performance.now() - started).toBeLessThan(5_000);
    const reason = new Error('already stopped');
    await expect(abortableDelay(0, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});

describe('untilAborted', () => {
  it("gives the promise's outcome while the signal stays quiet, and the promise itself without one", async () => {
    const promise = Promise.resolve(7);
    expect(untilAborted(promise)).toBe(promise);
    await expect(untilAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('failed')), new AbortController().signal)).rejects.toThrow('failed');
  });

  it("rejects with the signal's reason as soon as it aborts, however long the work takes", async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const waiting = untilAborted(never, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    const reason = new Error('cancelled before');
    await expect(untilAborted(never, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
