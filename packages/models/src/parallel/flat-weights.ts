import * as tf from '@tensorflow/tfjs-core';

/** Total element count of tensors (a flat buffer's length). */
export function totalSize(tensors: readonly { size: number }[]): number {
  return tensors.reduce((sum, tensor) => sum + tensor.size, 0);
}

/** Copies tensors, in order, into one Float32Array (one message, one transfer between threads). */
export function flattenTensors(tensors: readonly tf.Tensor[]): Float32Array {
  const flat = new Float32Array(totalSize(tensors));
  let offset = 0;
  for (const tensor of tensors) {
    flat.set(tensor.dataSync() as Float32Array, offset);
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
