import type { KernelConfig, KernelFunc, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdDecodeAttention, simdKernelsUnavailable } from './simd-kernels.js';
import { asWasmBackend, tensorAddress, type WasmBackend } from './wasm-backend.js';

/** Saccade's one-step attention against a KV cache it writes in place: a kernel only the wasm backend has. */
export const DECODE_ATTENTION_KERNEL = 'SaccadeDecodeAttention';

/** Heads, the position the step's key and value are written at, and the queries' scale. */
export interface DecodeAttentionAttrs {
  heads: number;
  position: number;
  scale: number;
}

interface DecodeAttentionInputs {
  qkv: TensorInfo;
  keys: TensorInfo;
  values: TensorInfo;
  bias?: TensorInfo;
}

/**
 * The cache tensors are written, so each must be the only tensor on its data: a reshape or clone
 * of it (which share data on this backend) would change under its holder.
 */
function ownedAddress(backend: WasmBackend, info: TensorInfo, name: string): number {
  const owner = backend as unknown as { refCount(dataId: object): number };
  const references = owner.refCount(info.dataId);
  if (references !== 1) {
    throw new Error(`${DECODE_ATTENTION_KERNEL} writes ${name} in place, so ${name} must be the only tensor on its data; ${references} tensors share it (a clone or reshape of the cache)`);
  }
  return tensorAddress(backend, info).offset;
}

function decodeAttention(args: { inputs: DecodeAttentionInputs; backend: unknown; attrs: NamedAttrMap }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const attrs = args.attrs as unknown as DecodeAttentionAttrs;
  const { qkv, keys, values, bias } = args.inputs;
  const [rows = 0, heads = 0, capacity = 0, size = 0] = keys.shape;
  const out = backend.makeOutput([rows, heads * size], 'float32');
  if (rows === 0) return out;
  const done = runSimdDecodeAttention(backend, {
    qkv: tensorAddress(backend, qkv).offset,
    keys: ownedAddress(backend, keys, 'keys'),
    values: ownedAddress(backend, values, 'values'),
    bias: bias ? tensorAddress(backend, bias).offset : undefined,
    out: tensorAddress(backend, out).offset,
    rows,
    heads,
    size,
    capacity,
    position: attrs.position,
    scale: attrs.scale,
  });
  if (done) return out;
  backend.disposeData(out.dataId);
  throw simdKernelsUnavailable(DECODE_ATTENTION_KERNEL);
}

export const decodeAttentionConfig: KernelConfig = {
  kernelName: DECODE_ATTENTION_KERNEL,
  backendName: 'wasm',
  kernelFunc: decodeAttention as unknown as KernelFunc,
};
