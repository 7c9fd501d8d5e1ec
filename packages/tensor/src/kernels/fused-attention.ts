import type { KernelConfig, KernelFunc, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { runNativeAttention, runNativeAttentionGrad } from './native-matmul.js';
import { runSimdAttention, runSimdAttentionGrad, type SimdAttention, simdKernelsUnavailable } from './simd-kernels.js';
import { asWasmBackend, tensorAddress, type WasmBackend } from './wasm-backend.js';

/**
 * Saccade's fused multi-head attention and its gradient: kernels only the wasm backend has. On the
 * native addon where it is on (native/attention.cc: the same floats), else the SIMD kernel.
 */
export const FUSED_ATTENTION_KERNEL = 'SaccadeFusedAttention';
export const FUSED_ATTENTION_GRAD_KERNEL = 'SaccadeFusedAttentionGrad';

/** The kernels' attributes: sequences, positions per sequence, heads, and the queries' scale. */
export interface FusedAttentionAttrs {
  batch: number;
  length: number;
  heads: number;
  scale: number;
}

interface AttentionInputs {
  qkv: TensorInfo;
  /** [length, length] or [batch, 1, length, length] (or [1, 1, length, length]); absent: no mask. */
  bias?: TensorInfo;
  /** [batch, heads, length, 2] from the forward kernel (gradient only). */
  stats?: TensorInfo;
}

function attentionAt(backend: WasmBackend, inputs: AttentionInputs, attrs: FusedAttentionAttrs, stats: TensorInfo): SimdAttention {
  const { qkv, bias } = inputs;
  const d = (qkv.shape[1] ?? 0) / 3;
  const biasItems = bias ? bias.shape.slice(0, -2).reduce((size, dimension) => size * dimension, 1) : 0;
  return {
    qkv: tensorAddress(backend, qkv).offset,
    bias: bias ? tensorAddress(backend, bias).offset : undefined,
    biasStride: biasItems > 1 ? attrs.length * attrs.length : 0,
    stats: tensorAddress(backend, stats).offset,
    batch: attrs.batch,
    length: attrs.length,
    heads: attrs.heads,
    size: d / attrs.heads,
    scale: attrs.scale,
  };
}

function fusedAttention(args: { inputs: AttentionInputs; backend: unknown; attrs: NamedAttrMap }): TensorInfo[] {
  const backend = asWasmBackend(args.backend);
  const attrs = args.attrs as unknown as FusedAttentionAttrs;
  const { qkv } = args.inputs;
  const rows = qkv.shape[0] ?? 0;
  const d = (qkv.shape[1] ?? 0) / 3;
  const out = backend.makeOutput([rows, d], 'float32');
  const stats = backend.makeOutput([attrs.batch, attrs.heads, attrs.length, 2], 'float32');
  const attention = attentionAt(backend, args.inputs, attrs, stats);
  const outAt = tensorAddress(backend, out).offset;
  if (rows === 0 || runNativeAttention(backend, attention, outAt) || runSimdAttention(backend, attention, outAt)) return [out, stats];
  backend.disposeData(out.dataId);
  backend.disposeData(stats.dataId);
  throw simdKernelsUnavailable(FUSED_ATTENTION_KERNEL);
}

function fusedAttentionGrad(args: { inputs: AttentionInputs & { dy: TensorInfo }; backend: unknown; attrs: NamedAttrMap }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const attrs = args.attrs as unknown as FusedAttentionAttrs;
  const { qkv, stats, dy } = args.inputs;
  if (!stats) throw new Error(`${FUSED_ATTENTION_GRAD_KERNEL} needs the forward kernel's stats`);
  const dqkv = backend.makeOutput([...qkv.shape], 'float32');
  const at = { dy: tensorAddress(backend, dy).offset, dqkv: tensorAddress(backend, dqkv).offset };
  const attention = attentionAt(backend, args.inputs, attrs, stats);
  if ((qkv.shape[0] ?? 0) === 0 || runNativeAttentionGrad(backend, attention, at) || runSimdAttentionGrad(backend, attention, at)) return dqkv;
  backend.disposeData(dqkv.dataId);
  throw simdKernelsUnavailable(FUSED_ATTENTION_GRAD_KERNEL);
}

export const fusedAttentionConfig: KernelConfig = { kernelName: FUSED_ATTENTION_KERNEL, backendName: 'wasm', kernelFunc: fusedAttention as unknown as KernelFunc };
export const fusedAttentionGradConfig: KernelConfig = {
  kernelName: FUSED_ATTENTION_GRAD_KERNEL,
  backendName: 'wasm',
  kernelFunc: fusedAttentionGrad as unknown as KernelFunc,
};
