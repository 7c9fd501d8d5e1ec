import { GatherV2, util, type GatherV2Attrs, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { asWasmBackend, heapValues, runStockKernel, sizeOf } from './wasm-backend.js';

/**
 * Gather (embedding lookups) as row copies on the heap, for batchDims 0: the stock kernel checks
 * each index through a closure and copies element by element; one lookup of 4,736 token rows took
 * ~2% of a training step. Out-of-range indices throw as the stock kernel does.
 */
function gatherV2(args: { inputs: { x: TensorInfo; indices: TensorInfo }; backend: unknown; attrs: GatherV2Attrs }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x, indices } = args.inputs;
  const { axis, batchDims } = args.attrs;
  if ((batchDims ?? 0) !== 0 || x.dtype === 'string' || x.dtype === 'complex64' || indices.dtype !== 'int32') {
    return runStockKernel(GatherV2, backend, { x, indices }, args.attrs as never);
  }
  const parsedAxis = util.parseAxisParam(axis, x.shape)[0] ?? 0;
  const dimension = x.shape[parsedAxis] ?? 0;
  const outer = sizeOf(x.shape.slice(0, parsedAxis));
  const slice = sizeOf(x.shape.slice(parsedAxis + 1));
  const out = backend.makeOutput([...x.shape.slice(0, parsedAxis), ...indices.shape, ...x.shape.slice(parsedAxis + 1)], x.dtype);
  const index = heapValues(backend, indices);
  for (const value of index) {
    if (!(value >= 0 && value < dimension)) {
      backend.disposeData(out.dataId);
      throw new Error(`GatherV2: the index value ${value} is not in [0, ${dimension - 1}]`);
    }
  }
  if (sizeOf(out.shape) === 0) return out;
  // Views after the last allocation (makeOutput may grow the heap).
  const source = heapValues(backend, x);
  const target = heapValues(backend, out);
  const indexValues = heapValues(backend, indices);
  let write = 0;
  for (let o = 0; o < outer; o++) {
    const base = o * dimension * slice;
    for (const value of indexValues) {
      const read = base + value * slice;
      if (slice >= 32) target.set(source.subarray(read, read + slice), write);
      else for (let offset = 0; offset < slice; offset++) target[write + offset] = source[read + offset] ?? 0;
      write += slice;
    }
  }
  return out;
}

export const gatherV2Config: KernelConfig = {
  kernelName: GatherV2,
  backendName: 'wasm',
  kernelFunc: gatherV2 as unknown as KernelFunc,
};
