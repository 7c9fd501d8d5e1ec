import { Slice, slice_util, type KernelConfig, type KernelFunc, type SliceAttrs, type TensorInfo } from '@tensorflow/tfjs-core';
import { asWasmBackend, heapValues, runStockKernel, sizeOf } from './wasm-backend.js';

/**
 * Slice of any rank straight from the wasm heap. The stock kernel first copies the whole input
 * out of the heap (readSync) and, above rank 4, gathers element by element: slicing q, k, v out
 * of a [batch, sequence, 3, heads, headWidth] projection took seconds per training step.
 */
export function slice(args: { inputs: { x: TensorInfo }; backend: unknown; attrs: SliceAttrs }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x } = args.inputs;
  if (x.dtype === 'string') return runStockKernel(Slice, backend, { x }, args.attrs as never);
  const shape = x.shape;
  const [begin, size] = slice_util.parseSliceParams(x as never, args.attrs.begin, args.attrs.size) as [number[], number[]];
  const out = backend.makeOutput(size, x.dtype);
  if (sizeOf(size) === 0) return out;
  const source = heapValues(backend, x);
  const target = heapValues(backend, out);

  // Trailing axes taken whole are contiguous: merge them into one row copy.
  let rowAxis = shape.length - 1;
  while (rowAxis > 0 && size[rowAxis] === shape[rowAxis]) rowAxis--;
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    strides[axis] = stride;
    stride *= shape[axis] ?? 1;
  }
  const rowLength = (size[rowAxis] ?? 1) * (strides[rowAxis] ?? 1);
  const outer = size.slice(0, rowAxis);
  const rows = sizeOf(outer);
  const index = new Array<number>(rowAxis).fill(0);
  let base = 0;
  for (let axis = 0; axis < shape.length; axis++) base += (begin[axis] ?? 0) * (strides[axis] ?? 0);
  for (let row = 0; row < rows; row++) {
    let read = base;
    for (let axis = 0; axis < rowAxis; axis++) read += (index[axis] ?? 0) * (strides[axis] ?? 0);
    const write = row * rowLength;
    if (rowLength >= 64) {
      target.set(source.subarray(read, read + rowLength), write);
    } else {
      for (let offset = 0; offset < rowLength; offset++) target[write + offset] = source[read + offset] ?? 0;
    }
    // Odometer over the outer axes.
    for (let axis = rowAxis - 1; axis >= 0; axis--) {
      const next = (index[axis] ?? 0) + 1;
      if (next < (outer[axis] ?? 1)) {
        index[axis] = next;
        break;
      }
      index[axis] = 0;
    }
  }
  return out;
}

export const sliceConfig: KernelConfig = {
  kernelName: Slice,
  backendName: 'wasm',
  kernelFunc: slice as unknown as KernelFunc,
};
