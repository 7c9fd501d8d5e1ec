import { Tanh, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdTanh } from './simd-kernels.js';
import { asWasmBackend, runStockKernel, sizeOf, tensorAddress } from './wasm-backend.js';

/**
 * tanh four lanes at a time (the GELU of every MLP calls it on [rows, 4d]): musl's tanhf/expm1f,
 * which the stock kernel calls one float at a time, evaluated branch-free with the same float
 * operations, so the results are the same floats (tested bit for bit against the stock kernel).
 */
function tanh(args: { inputs: { x: TensorInfo }; backend: unknown }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x } = args.inputs;
  if (x.dtype === 'float32') {
    const out = backend.makeOutput([...x.shape], 'float32');
    const size = sizeOf(x.shape);
    if (size === 0 || runSimdTanh(backend, tensorAddress(backend, x).offset, tensorAddress(backend, out).offset, size)) return out;
    backend.disposeData(out.dataId);
  }
  return runStockKernel(Tanh, backend, { x });
}

export const tanhConfig: KernelConfig = {
  kernelName: Tanh,
  backendName: 'wasm',
  kernelFunc: tanh as unknown as KernelFunc,
};
