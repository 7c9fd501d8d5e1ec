import type { KernelConfig, KernelFunc, TensorInfo } from '@tensorflow/tfjs-core';
import { runNativeGelu, runNativeGeluGrad } from './native-matmul.js';
import { runSimdGelu, runSimdGeluGrad, simdKernelsUnavailable } from './simd-kernels.js';
import { asWasmBackend, sizeOf, tensorAddress } from './wasm-backend.js';

/**
 * Saccade's fused GELU (tanh approximation) and its gradient: kernels only the wasm backend has.
 * On the native addon where it is on (native/gelu.cc: the same floats), else the SIMD kernel.
 */
export const GELU_KERNEL = 'SaccadeGelu';
export const GELU_GRAD_KERNEL = 'SaccadeGeluGrad';

function gelu(args: { inputs: { x: TensorInfo }; backend: unknown }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x } = args.inputs;
  const out = backend.makeOutput([...x.shape], 'float32');
  const size = sizeOf(x.shape);
  const xAt = tensorAddress(backend, x).offset;
  const outAt = tensorAddress(backend, out).offset;
  if (size === 0 || runNativeGelu(backend, xAt, outAt, size) || runSimdGelu(backend, xAt, outAt, size)) return out;
  backend.disposeData(out.dataId);
  throw simdKernelsUnavailable(GELU_KERNEL);
}

function geluGrad(args: { inputs: { x: TensorInfo; dy: TensorInfo }; backend: unknown }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x, dy } = args.inputs;
  const out = backend.makeOutput([...x.shape], 'float32');
  const size = sizeOf(x.shape);
  const xAt = tensorAddress(backend, x).offset;
  const dyAt = tensorAddress(backend, dy).offset;
  const outAt = tensorAddress(backend, out).offset;
  if (size === 0 || runNativeGeluGrad(backend, xAt, dyAt, outAt, size) || runSimdGeluGrad(backend, xAt, dyAt, outAt, size)) return out;
  backend.disposeData(out.dataId);
  throw simdKernelsUnavailable(GELU_GRAD_KERNEL);
}

export const geluConfig: KernelConfig = { kernelName: GELU_KERNEL, backendName: 'wasm', kernelFunc: gelu as unknown as KernelFunc };
export const geluGradConfig: KernelConfig = { kernelName: GELU_GRAD_KERNEL, backendName: 'wasm', kernelFunc: geluGrad as unknown as KernelFunc };
