import { registerKernel, unregisterKernel, getKernel, type KernelConfig } from '@tensorflow/tfjs-core';
import { adamConfig } from './kernels/adam.js';
import { batchMatMulConfig } from './kernels/batch-mat-mul.js';
import { addConfig, multiplyConfig, subConfig } from './kernels/binary.js';
import { conv2DBackpropFilterConfig } from './kernels/conv2d-backprop-filter.js';
import { conv2DBackpropInputConfig } from './kernels/conv2d-backprop-input.js';
import { decodeAttentionConfig } from './kernels/decode-attention.js';
import { depthwiseConv2dNativeBackpropFilterConfig } from './kernels/depthwise-conv2d-backprop-filter.js';
import { depthwiseConv2dNativeBackpropInputConfig } from './kernels/depthwise-conv2d-backprop-input.js';
import { fusedAttentionConfig, fusedAttentionGradConfig } from './kernels/fused-attention.js';
import { gatherV2Config } from './kernels/gather-v2.js';
import { geluConfig, geluGradConfig } from './kernels/gelu.js';
import { identityConfig } from './kernels/identity.js';
import { layerNormConfig, layerNormGradConfig } from './kernels/layer-norm.js';
import { maxPoolGradConfig } from './kernels/max-pool-grad.js';
import { sliceConfig } from './kernels/slice.js';
import { smoothMaxStemConfig, smoothMaxStemGradConfig } from './kernels/smooth-max-stem.js';
import { splitVConfig } from './kernels/split-v.js';
import { sumConfig } from './kernels/sum.js';
import { tanhConfig } from './kernels/tanh.js';
import { tileConfig } from './kernels/tile.js';
import { unsortedSegmentSumConfig } from './kernels/unsorted-segment-sum.js';
import { rememberStockKernel, stockKernel } from './kernels/wasm-backend.js';

/** Saccade's replacements and additions to the wasm backend's kernels (see docs/tensor.md). */
export const wasmKernelConfigs: readonly KernelConfig[] = [
  adamConfig,
  addConfig,
  batchMatMulConfig,
  conv2DBackpropFilterConfig,
  conv2DBackpropInputConfig,
  decodeAttentionConfig,
  depthwiseConv2dNativeBackpropFilterConfig,
  depthwiseConv2dNativeBackpropInputConfig,
  fusedAttentionConfig,
  fusedAttentionGradConfig,
  gatherV2Config,
  geluConfig,
  geluGradConfig,
  identityConfig,
  layerNormConfig,
  layerNormGradConfig,
  maxPoolGradConfig,
  multiplyConfig,
  sliceConfig,
  smoothMaxStemConfig,
  smoothMaxStemGradConfig,
  splitVConfig,
  subConfig,
  sumConfig,
  tanhConfig,
  tileConfig,
  unsortedSegmentSumConfig,
];

let registered = false;

/**
 * The kernels `SACCADE_WASM_KERNELS_OFF` (names, comma-separated) leaves out: only to measure one
 * fix against its previous route (the stock kernel, or the tfjs ops where the kernel is Saccade's
 * own), in worker threads too. A name that is not one of `wasmKernelConfigs` is an error.
 */
export function kernelsTurnedOff(): Set<string> {
  const names = (process.env['SACCADE_WASM_KERNELS_OFF'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const known = wasmKernelConfigs.map((config) => config.kernelName);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`SACCADE_WASM_KERNELS_OFF names kernels Saccade does not register: ${unknown.join(', ')}; expected some of ${known.join(', ')}.`);
  return new Set(names);
}

/**
 * Registers the fixes for the 'wasm' backend, replacing stock kernels where wasm has a wrong or
 * slow one, but those `SACCADE_WASM_KERNELS_OFF` names. Idempotent; `initTensor` calls it when it
 * picks wasm.
 */
export function registerWasmKernels(): void {
  if (registered) return;
  const off = kernelsTurnedOff();
  for (const config of wasmKernelConfigs) {
    // The fixes call some stock kernels (BatchMatMul's fallback), so keep them first.
    rememberStockKernel(config.kernelName);
    if (getKernel(config.kernelName, 'wasm')) unregisterKernel(config.kernelName, 'wasm');
    const stock = stockKernel(config.kernelName);
    if (!off.has(config.kernelName)) registerKernel(config);
    else if (stock) registerKernel(stock);
  }
  rememberStockKernel('Transpose');
  registered = true;
}

/**
 * Puts the stock wasm kernels back (and drops the ones wasm lacks): only to measure or compare
 * against stock tfjs-wasm. `registerWasmKernels()` installs the fixes again.
 */
export function unregisterWasmKernels(): void {
  for (const config of wasmKernelConfigs) {
    const current = getKernel(config.kernelName, 'wasm');
    const stock = stockKernel(config.kernelName);
    if (current === stock) continue;
    if (current) unregisterKernel(config.kernelName, 'wasm');
    if (stock) registerKernel(stock);
  }
  registered = false;
}
