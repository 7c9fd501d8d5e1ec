import * as tf from '@tensorflow/tfjs-core';
import { copyTensorInto } from '@saccade/tensor';

/** Total element count of tensors (a flat buffer's length). */
export function totalSize(tensors: readonly { size: number }[]): number {
  return tensors.reduce((sum, tensor) => sum + tensor.size, 0);
}

/**
 * A Float32Array over shared memory: posted to another thread it is shared, not copied, so the
 * weights and gradients DataParallel exchanges every step cost no copy and no garbage (a fresh
 * 6 MB array a step made each thread's heap collect once a step).
 */
export function sharedFloats(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(length * Float32Array.BYTES_PER_ELEMENT));
}

/**
 * Copies tensors, in order, into one Float32Array: `into` when given (its length must be theirs,
 * e.g. a reused sharedFloats buffer), else a new one.
 */
export function flattenTensors(tensors: readonly tf.Tensor[], into?: Float32Array): Float32Array {
  const size = totalSize(tensors);
  if (into && into.length !== size) throw new RangeError(`A flat buffer of ${size} values was expected; got ${into.length}.`);
  const flat = into ?? new Float32Array(size);
  let offset = 0;
  for (const tensor of tensors) {
    // Straight from the backend's memory: no array a tensor to collect afterwards.
    copyTensorInto(tensor, flat, offset);
    offset += tensor.size;
  }
  return flat;
}

/** Splits a flat buffer into tensors shaped like `like` (the caller owns the results). */
export function unflattenTensors(flat: Float32Array, like: readonly tf.Tensor[]): tf.Tensor[] {
  if (flat.length !== totalSize(like)) {
    throw new RangeError(`A flat buffer of ${totalSize(like)} values was expected; got ${flat.length}.`);
  }
  let offset = 0;
  return like.map((tensor) => {
    const part = tf.tensor(flat.subarray(offset, offset + tensor.size), tensor.shape, 'float32');
    offset += tensor.size;
    return part;
  });
}

/** Assigns a flat buffer to variables in order. */
export function assignFlat(variables: readonly tf.Variable[], flat: Float32Array): void {
  if (flat.length !== totalSize(variables)) {
    throw new RangeError(`A flat buffer of ${totalSize(variables)} values was expected; got ${flat.length}.`);
  }
  let offset = 0;
  for (const variable of variables) {
    const values = flat.subarray(offset, offset + variable.size);
    tf.tidy(() => variable.assign(tf.tensor(values, variable.shape, 'float32')));
    offset += variable.size;
  }
}
