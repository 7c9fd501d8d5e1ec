import { Tile, type KernelConfig, type KernelFunc, type TensorInfo, type TileAttrs } from '@tensorflow/tfjs-core';
import { asWasmBackend, heapValues, runStockKernel, sizeOf } from './wasm-backend.js';

/**
 * Tile (and so broadcastTo) by block copies: write each block once, then copyWithin for the
 * repeats. The stock wasm kernel goes element by element (0.66 s to broadcast a 128×128 causal
 * mask to [16, 4, 128, 128]).
 */
function tile(args: { inputs: { x: TensorInfo }; backend: unknown; attrs: TileAttrs }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x } = args.inputs;
  const { reps } = args.attrs;
  if (x.dtype === 'string' || x.shape.length === 0) return runStockKernel(Tile, backend, { x }, args.attrs as never);
  const shape = x.shape;
  const rank = shape.length;
  const outShape = shape.map((dimension, axis) => dimension * (reps[axis] ?? 1));
  const out = backend.makeOutput(outShape, x.dtype);
  if (sizeOf(outShape) === 0) return out;
  const source = heapValues(backend, x);
  const target = heapValues(backend, out);
  const inStrides = new Array<number>(rank);
  const outStrides = new Array<number>(rank);
  let inStride = 1;
  let outStride = 1;
  for (let axis = rank - 1; axis >= 0; axis--) {
    inStrides[axis] = inStride;
    outStrides[axis] = outStride;
    inStride *= shape[axis] ?? 1;
    outStride *= outShape[axis] ?? 1;
  }
  // The trailing axes that are not repeated are one contiguous block in both: copied in one go
  // (a KV cache [rows, 1, heads, length, size] tiled n times on axis 1 is rows block copies).
  let tail = rank;
  while (tail > 0 && (reps[tail - 1] ?? 1) === 1) tail--;
  const fill = (axis: number, read: number, write: number): void => {
    if (axis === tail) {
      const block = inStrides[axis - 1] ?? sizeOf(shape);
      target.set(source.subarray(read, read + block), write);
      return;
    }
    const length = shape[axis] ?? 1;
    const step = outStrides[axis] ?? 1;
    if (axis === rank - 1) {
      for (let index = 0; index < length; index++) target[write + index] = source[read + index] ?? 0;
    } else {
      for (let index = 0; index < length; index++) fill(axis + 1, read + index * (inStrides[axis] ?? 0), write + index * step);
    }
    const block = length * step;
    for (let repeat = 1; repeat < (reps[axis] ?? 1); repeat++) target.copyWithin(write + repeat * block, write, write + block);
  };
  fill(0, 0, 0);
  return out;
}

export const tileConfig: KernelConfig = {
  kernelName: Tile,
  backendName: 'wasm',
  kernelFunc: tile as unknown as KernelFunc,
};
