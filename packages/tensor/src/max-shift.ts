import { tf } from './tf.js';

/*
 * A softmax or a log-sum-exp subtracts the max along its axes before the exp, so that exp never
 * overflows. Differentiated by tfjs, that max costs a broadcast comparison `x == max(x)` over the
 * whole tensor (`Equal`, then a cast and a product), although its gradient cancels: both are
 * invariant to shifting x along the axes. These two ops compute the same values as the tfjs
 * expressions, with gradients that leave the max out.
 */

/** x's shape with the reduced axes kept as 1s. */
function keptShape(x: tf.Tensor, axes: number[]): number[] {
  return x.shape.map((size, axis) => (axes.includes(axis) ? 1 : size));
}

/**
 * exp(x − max(x)) along `axis` (the result has x's shape), for weights that are normalised
 * afterwards. The gradient holds the max constant: dy·exp(x − max). It differs from the derivative
 * of this op alone only at the max, by a term that cancels exactly in anything invariant to a shift
 * of x along the axis — a softmax, a ratio of sums of these weights (a masked attention's weighted
 * mean) — which is where this op belongs. The values are those of
 * `tf.exp(tf.sub(x, tf.max(x, axis, true)))`, float for float.
 */
export function expShiftedByMax<T extends tf.Tensor>(x: T, axis: number | number[] = -1): T {
  const axes = tf.util.parseAxisParam(axis, x.shape);
  const shifted = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [input, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const value = tf.exp(tf.sub(input, tf.max(input, axes, true)));
    save([value]);
    return { value, gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.mul(dy, saved[0]!)] };
  }) as (input: tf.Tensor) => tf.Tensor;
  return shifted(x) as T;
}

/**
 * log Σ exp(x) over `axis` (all axes when null), as `tf.logSumExp`: the same ops forward (max,
 * shift, exp, sum, log, the max added back), so the same floats. Its gradient is the exact one,
 * softmax(x)·dy, from the forward pass's exps and sums: one product and one division instead of
 * tfjs's autodiff through the max.
 */
export function stableLogSumExp<T extends tf.Tensor>(x: tf.Tensor, axis: number | number[] | null = null, keepDims = false): T {
  const axes = tf.util.parseAxisParam(axis ?? x.shape.map((_, at) => at), x.shape);
  const kept = keptShape(x, axes);
  const logSumExp = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [input, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const max = tf.max(input, axes, true);
    const exps = tf.exp(tf.sub(input, max));
    const sums = tf.sum(exps, axes);
    const logs = tf.log(sums);
    const value = tf.add(tf.reshape(max, logs.shape), logs);
    save([exps, sums]);
    return {
      value: keepDims ? tf.reshape(value, kept) : value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [savedExps, savedSums] = saved as [tf.Tensor, tf.Tensor];
        return [tf.mul(savedExps, tf.div(tf.reshape(dy, kept), tf.reshape(savedSums, kept)))];
      },
    };
  }) as (input: tf.Tensor) => tf.Tensor;
  return logSumExp(x) as T;
}

/**
 * A smooth maximum over `axes`, (1/β)·log mean exp(β·x): its gradient goes to the elements that lit
 * it, where a hard max's goes to every tied element of a flat region. Through stableLogSumExp, so
 * the max it subtracts is not differentiated.
 */
export function smoothMaximum<T extends tf.Tensor>(x: tf.Tensor, axes: number | number[], sharpness: number): T {
  const reduced = tf.util.parseAxisParam(axes, x.shape);
  const count = reduced.reduce((product, axis) => product * x.shape[axis]!, 1);
  return tf.div(tf.sub(stableLogSumExp(tf.mul(x, sharpness), reduced), Math.log(count)), sharpness) as T;
}
