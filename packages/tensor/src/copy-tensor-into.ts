import { tf } from './tf.js';
import { asWasmBackend, heapFloat32 } from './kernels/wasm-backend.js';

/**
 * Copies a float32 tensor's values into `target` at `offset`. On the wasm backend straight from its
 * heap (no intermediate array: `dataSync` returns a fresh copy, and DataParallel's 6 MB of weights
 * and gradients a step read that way were garbage each thread collected every step); elsewhere
 * through `dataSync`.
 */
export function copyTensorInto(tensor: tf.Tensor, target: Float32Array, offset = 0): void {
  if (tensor.dtype !== 'float32') throw new TypeError(`copyTensorInto copies float32 tensors; got ${tensor.dtype}`);
  if (offset < 0 || offset + tensor.size > target.length) {
    throw new RangeError(`copyTensorInto: ${tensor.size} values at ${offset} do not fit a target of ${target.length}`);
  }
  if (tf.getBackend() === 'wasm') {
    // A view of the heap, valid until the next allocation: copied at once.
    target.set(heapFloat32(asWasmBackend(tf.backend()), tensor), offset);
    return;
  }
  target.set(tensor.dataSync() as Float32Array, offset);
}
