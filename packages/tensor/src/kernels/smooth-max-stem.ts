import type { KernelConfig, KernelFunc, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdSmoothMaxStem, runSimdSmoothMaxStemGrad, type SimdStem, simdKernelsUnavailable } from './simd-kernels.js';
import { asWasmBackend, tensorAddress, type WasmBackend } from './wasm-backend.js';

/** Saccade's pixel stem with smooth-max pooling and its gradient: kernels only the wasm backend has. */
export const SMOOTH_MAX_STEM_KERNEL = 'SaccadeSmoothMaxStem';
export const SMOOTH_MAX_STEM_GRAD_KERNEL = 'SaccadeSmoothMaxStemGrad';

/** The kernels' attributes: patch side in pixels, block side, and β of the smooth maximum. */
export interface SmoothMaxStemAttrs {
  patchSize: number;
  pool: number;
  sharpness: number;
}

interface StemInputs {
  pixels: TensorInfo;
  weight: TensorInfo;
  bias: TensorInfo;
}

function stemAt(backend: WasmBackend, inputs: StemInputs, attrs: SmoothMaxStemAttrs): SimdStem {
  const { pixels, weight, bias } = inputs;
  return {
    pixels: tensorAddress(backend, pixels).offset,
    weight: tensorAddress(backend, weight).offset,
    bias: tensorAddress(backend, bias).offset,
    count: pixels.shape[0] ?? 0,
    side: attrs.patchSize,
    pool: attrs.pool,
    channels: weight.shape[1] ?? 0,
    beta: attrs.sharpness,
  };
}

function smoothMaxStem(args: { inputs: StemInputs; backend: unknown; attrs: NamedAttrMap }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const attrs = args.attrs as unknown as SmoothMaxStemAttrs;
  const { pixels, weight } = args.inputs;
  const count = pixels.shape[0] ?? 0;
  const blocks = attrs.patchSize / attrs.pool;
  const out = backend.makeOutput([count, blocks * blocks * (weight.shape[1] ?? 0)], 'float32');
  if (count === 0 || runSimdSmoothMaxStem(backend, stemAt(backend, args.inputs, attrs), tensorAddress(backend, out).offset)) return out;
  backend.disposeData(out.dataId);
  throw simdKernelsUnavailable(SMOOTH_MAX_STEM_KERNEL);
}

function smoothMaxStemGrad(args: { inputs: StemInputs & { dy: TensorInfo }; backend: unknown; attrs: NamedAttrMap }): TensorInfo[] {
  const backend = asWasmBackend(args.backend);
  const attrs = args.attrs as unknown as SmoothMaxStemAttrs;
  const { weight, bias, dy } = args.inputs;
  const outputs = [backend.makeOutput([...weight.shape], 'float32'), backend.makeOutput([...bias.shape], 'float32')] as const;
  const at = { dy: tensorAddress(backend, dy).offset, dWeight: tensorAddress(backend, outputs[0]).offset, dBias: tensorAddress(backend, outputs[1]).offset };
  if (runSimdSmoothMaxStemGrad(backend, stemAt(backend, args.inputs, attrs), at)) return [...outputs];
  for (const output of outputs) backend.disposeData(output.dataId);
  throw simdKernelsUnavailable(SMOOTH_MAX_STEM_GRAD_KERNEL);
}

export const smoothMaxStemConfig: KernelConfig = { kernelName: SMOOTH_MAX_STEM_KERNEL, backendName: 'wasm', kernelFunc: smoothMaxStem as unknown as KernelFunc };
export const smoothMaxStemGradConfig: KernelConfig = {
  kernelName: SMOOTH_MAX_STEM_GRAD_KERNEL,
  backendName: 'wasm',
  kernelFunc: smoothMaxStemGrad as unknown as KernelFunc,
};
