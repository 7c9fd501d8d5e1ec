import { Add, backend_util, Multiply, Sub, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { binaryLayout, runSimdBinary, type SimdBinaryOp } from './simd-kernels.js';
import { asWasmBackend, runStockKernel, sizeOf, tensorAddress } from './wasm-backend.js';

/**
 * Add, Sub and Multiply of float32 with Saccade's SIMD kernel for the broadcasts models use (same
 * shape, a scalar, a bias row, a per-row value such as a layer norm's mean), in place on the heap.
 * The stock kernels (XNNPACK) are already SIMD; this saves their per-call broadcast setup: a small
 * win (within ±15% on large tensors on a quiet machine, up to 1.5× on a loaded one). One IEEE
 * operation per element, so the same floats. Other broadcasts and dtypes stay stock.
 */
function binaryKernel(name: string, op: SimdBinaryOp): KernelConfig {
  const kernelFunc = (args: { inputs: { a: TensorInfo; b: TensorInfo }; backend: unknown; attrs?: object }): TensorInfo => {
    const backend = asWasmBackend(args.backend);
    const { a, b } = args.inputs;
    if (a.dtype === 'float32' && b.dtype === 'float32') {
      const layout = binaryLayout(a.shape, b.shape);
      if (layout) {
        const out = backend.makeOutput(backend_util.assertAndGetBroadcastShape(a.shape, b.shape), 'float32');
        if (sizeOf(out.shape) === 0) return out;
        const ran = runSimdBinary(
          backend,
          op,
          tensorAddress(backend, a).offset,
          tensorAddress(backend, b).offset,
          tensorAddress(backend, out).offset,
          layout,
        );
        if (ran) return out;
        backend.disposeData(out.dataId);
      }
    }
    return runStockKernel(name, backend, { a, b });
  };
  return { kernelName: name, backendName: 'wasm', kernelFunc: kernelFunc as unknown as KernelFunc };
}

export const addConfig = binaryKernel(Add, 'add');
export const subConfig = binaryKernel(Sub, 'sub');
export const multiplyConfig = binaryKernel(Multiply, 'mul');
