import { backend_util, Sum, util, type KernelConfig, type KernelFunc, type SumAttrs, type TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdSumRows } from './simd-kernels.js';
import { asWasmBackend, runStockKernel, sizeOf, tensorAddress } from './wasm-backend.js';

/**
 * Sum over leading axes (bias and layer-norm gain gradients: `[rows, d]` → `[d]`) with the SIMD
 * column sum, in place on the heap. The stock kernel transposes the whole input first so that it
 * can sum rows. Every column adds its rows in order from 0, as the stock kernel does, so the
 * results are the same floats. Other reductions (trailing or mixed axes) stay stock.
 */
function sum(args: { inputs: { x: TensorInfo }; backend: unknown; attrs: SumAttrs }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x } = args.inputs;
  const { axis, keepDims } = args.attrs;
  const rank = x.shape.length;
  const axes = util.parseAxisParam(axis, x.shape).sort((left, right) => left - right);
  const leading = axes.length > 0 && axes.length < rank && axes.every((value, index) => value === index);
  if (x.dtype === 'float32' && leading && sizeOf(x.shape) > 0) {
    const rows = sizeOf(x.shape.slice(0, axes.length));
    const kept = x.shape.slice(axes.length);
    const shape = keepDims ? backend_util.expandShapeToKeepDim(kept, axes) : kept;
    const out = backend.makeOutput(shape, 'float32');
    if (runSimdSumRows(backend, tensorAddress(backend, x).offset, tensorAddress(backend, out).offset, rows, sizeOf(kept))) {
      return out;
    }
    backend.disposeData(out.dataId);
  }
  return runStockKernel(Sum, backend, { x }, args.attrs as never);
}

export const sumConfig: KernelConfig = {
  kernelName: Sum,
  backendName: 'wasm',
  kernelFunc: sum as unknown as KernelFunc,
};
