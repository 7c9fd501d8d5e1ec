// The timing both kernel benches share: each variant's forward and forward + backward, the variants
// alternating within each repetition (the same load on a shared machine), the first repetition a
// warm-up (kernels, heap growth), each inside tf.tidy; the median milliseconds per variant.
import { tf } from '../dist/index.js';

/**
 * @param {string[]} names the variants, in the order each repetition runs them
 * @param {{ repeats: number, forward: (name: string) => void, forwardBackward: (name: string) => void }} run
 * @returns {Record<string, { forwardMs: number, forwardBackwardMs: number }>}
 */
export function compareVariants(names, { repeats, forward, forwardBackward }) {
  const times = Object.fromEntries(names.map((name) => [name, { forward: [], forwardBackward: [] }]));
  const time = (fn) => {
    const start = performance.now();
    tf.tidy(fn);
    return performance.now() - start;
  };
  for (let repeat = 0; repeat < repeats + 1; repeat++) {
    for (const name of names) {
      const forwardMs = time(() => forward(name));
      const forwardBackwardMs = time(() => forwardBackward(name));
      if (repeat === 0) continue;
      times[name].forward.push(forwardMs);
      times[name].forwardBackward.push(forwardBackwardMs);
    }
  }
  const median = (values) => Math.round(10 * [...values].sort((a, b) => a - b)[values.length >> 1]) / 10;
  return Object.fromEntries(Object.entries(times).map(([name, { forward: f, forwardBackward: fb }]) => [name, { forwardMs: median(f), forwardBackwardMs: median(fb) }]));
}
