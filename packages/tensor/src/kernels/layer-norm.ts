import type { KernelConfig, KernelFunc, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdLayerNorm, runSimdLayerNormGrad, type SimdLayerNorm, simdKernelsUnavailable } from './simd-kernels.js';
import { asWasmBackend, sizeOf, tensorAddress, type WasmBackend } from './wasm-backend.js';

/** Saccade's fused layer norm over the last axis and its gradient: kernels only the wasm backend has. */
export const LAYER_NORM_KERNEL = 'SaccadeLayerNorm';
export const LAYER_NORM_GRAD_KERNEL = 'SaccadeLayerNormGrad';

/** The forward kernel's attribute: ε, added to each row's variance. */
export interface LayerNormAttrs {
  epsilon: number;
}

/** Rows and width of x ([..., d]), checking that gain (and bias) are [d] float32. */
function rowsOf(kernel: string, x: TensorInfo, vectors: TensorInfo[]): { rows: number; d: number } {
  const d = x.shape[x.shape.length - 1] ?? 0;
  for (const vector of [x, ...vectors]) {
    if (vector.dtype !== 'float32') throw new Error(`${kernel}: expected float32 operands, got ${vector.dtype}`);
  }
  for (const vector of vectors) {
    if (vector.shape.length !== 1 || vector.shape[0] !== d) throw new Error(`${kernel}: gain and bias must be [${d}] (x's last axis); got [${vector.shape.join(', ')}]`);
  }
  return { rows: d === 0 ? 0 : sizeOf(x.shape) / d, d };
}

function normAt(backend: WasmBackend, x: TensorInfo, gain: TensorInfo, mean: TensorInfo, inverse: TensorInfo, rows: number, d: number): SimdLayerNorm {
  return {
    x: tensorAddress(backend, x).offset,
    gain: tensorAddress(backend, gain).offset,
    mean: tensorAddress(backend, mean).offset,
    inverse: tensorAddress(backend, inverse).offset,
    rows,
    d,
  };
}

/** [y (x's shape), mean [rows], inverse [rows]]. */
function layerNorm(args: { inputs: { x: TensorInfo; gain: TensorInfo; bias: TensorInfo }; backend: unknown; attrs: NamedAttrMap }): TensorInfo[] {
  const backend = asWasmBackend(args.backend);
  const { x, gain, bias } = args.inputs;
  const { epsilon } = args.attrs as unknown as LayerNormAttrs;
  const { rows, d } = rowsOf(LAYER_NORM_KERNEL, x, [gain, bias]);
  const out = backend.makeOutput([...x.shape], 'float32');
  const mean = backend.makeOutput([rows], 'float32');
  const inverse = backend.makeOutput([rows], 'float32');
  const at = { bias: tensorAddress(backend, bias).offset, out: tensorAddress(backend, out).offset };
  if (rows === 0 || runSimdLayerNorm(backend, normAt(backend, x, gain, mean, inverse, rows, d), at, epsilon)) return [out, mean, inverse];
  for (const info of [out, mean, inverse]) backend.disposeData(info.dataId);
  throw simdKernelsUnavailable(LAYER_NORM_KERNEL);
}

/** [dx (x's shape), dgain [d], dbias [d]]. */
function layerNormGrad(args: {
  inputs: { x: TensorInfo; gain: TensorInfo; mean: TensorInfo; inverse: TensorInfo; dy: TensorInfo };
  backend: unknown;
}): TensorInfo[] {
  const backend = asWasmBackend(args.backend);
  const { x, gain, mean, inverse, dy } = args.inputs;
  const { rows, d } = rowsOf(LAYER_NORM_GRAD_KERNEL, x, [gain]);
  if (sizeOf(mean.shape) !== rows || sizeOf(inverse.shape) !== rows || sizeOf(dy.shape) !== sizeOf(x.shape)) {
    throw new Error(`${LAYER_NORM_GRAD_KERNEL}: mean and inverse must have ${rows} values (x's rows) and dy x's shape`);
  }
  const dx = backend.makeOutput([...x.shape], 'float32');
  const dGain = backend.makeOutput([d], 'float32');
  const dBias = backend.makeOutput([d], 'float32');
  const at = {
    dy: tensorAddress(backend, dy).offset,
    dx: tensorAddress(backend, dx).offset,
    dGain: tensorAddress(backend, dGain).offset,
    dBias: tensorAddress(backend, dBias).offset,
  };
  if (rows === 0 || runSimdLayerNormGrad(backend, normAt(backend, x, gain, mean, inverse, rows, d), at)) {
    // No rows: the column sums are zeros (makeOutput does not clear the heap).
    if (rows === 0) for (const info of [dGain, dBias]) backend.typedArrayFromHeap(info).fill(0);
    return [dx, dGain, dBias];
  }
  for (const info of [dx, dGain, dBias]) backend.disposeData(info.dataId);
  throw simdKernelsUnavailable(LAYER_NORM_GRAD_KERNEL);
}

export const layerNormConfig: KernelConfig = { kernelName: LAYER_NORM_KERNEL, backendName: 'wasm', kernelFunc: layerNorm as unknown as KernelFunc };
export const layerNormGradConfig: KernelConfig = { kernelName: LAYER_NORM_GRAD_KERNEL, backendName: 'wasm', kernelFunc: layerNormGrad as unknown as KernelFunc };
