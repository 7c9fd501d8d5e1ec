import { UnsortedSegmentSum, type KernelConfig, type KernelFunc, type TensorInfo, type UnsortedSegmentSumAttrs } from '@tensorflow/tfjs-core';
import { asWasmBackend, heapValues, sizeOf } from './wasm-backend.js';

/**
 * Scatter-add of x's rows into numSegments rows. wasm lacks this kernel, and it is the gradient
 * of gather, so without it no embedding trains. Ids outside [0, numSegments) are dropped, as in TF.
 */
function unsortedSegmentSum(args: {
  inputs: { x: TensorInfo; segmentIds: TensorInfo };
  backend: unknown;
  attrs: UnsortedSegmentSumAttrs;
}): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x, segmentIds } = args.inputs;
  const { numSegments } = args.attrs;
  const rowCount = sizeOf(segmentIds.shape);
  const rowSize = rowCount === 0 ? 0 : sizeOf(x.shape) / rowCount;
  const outShape = [numSegments, ...x.shape.slice(segmentIds.shape.length)];
  const out = backend.makeOutput(outShape, x.dtype);
  // Views after the allocation (it may grow the heap).
  const values = heapValues(backend, x);
  const ids = heapValues(backend, segmentIds);
  const target = heapValues(backend, out);
  target.fill(0);
  for (let row = 0; row < rowCount; row++) {
    const segment = ids[row] ?? -1;
    if (segment < 0 || segment >= numSegments) continue;
    const from = row * rowSize;
    const to = segment * rowSize;
    for (let index = 0; index < rowSize; index++) target[to + index] = (target[to + index] ?? 0) + (values[from + index] ?? 0);
  }
  return out;
}

export const unsortedSegmentSumConfig: KernelConfig = {
  kernelName: UnsortedSegmentSum,
  backendName: 'wasm',
  kernelFunc: unsortedSegmentSum as unknown as KernelFunc,
};
