import { getKernel } from '@tensorflow/tfjs-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initWasm } from '../test/compare-backends.js';
import { SMOOTH_MAX_STEM_GRAD_KERNEL, SMOOTH_MAX_STEM_KERNEL } from './kernels/smooth-max-stem.js';
import { stockKernel } from './kernels/wasm-backend.js';
import { registerWasmKernels, unregisterWasmKernels, wasmKernelConfigs } from './index.js';

beforeAll(initWasm);
afterEach(() => {
  delete process.env['SACCADE_WASM_KERNELS_OFF'];
  unregisterWasmKernels();
  registerWasmKernels();
});

const registered = (name: string) => getKernel(name, 'wasm');
const fix = (name: string) => wasmKernelConfigs.find((config) => config.kernelName === name);

describe('registerWasmKernels', () => {
  it('leaves out the kernels SACCADE_WASM_KERNELS_OFF names: the stock kernel stays, a kernel wasm lacks is absent', () => {
    process.env['SACCADE_WASM_KERNELS_OFF'] = ` ${SMOOTH_MAX_STEM_KERNEL}, ${SMOOTH_MAX_STEM_GRAD_KERNEL},BatchMatMul `;
    unregisterWasmKernels();
    registerWasmKernels();
    expect(registered(SMOOTH_MAX_STEM_KERNEL)).toBeUndefined();
    expect(registered(SMOOTH_MAX_STEM_GRAD_KERNEL)).toBeUndefined();
    expect(registered('BatchMatMul')).toBe(stockKernel('BatchMatMul'));
    expect(stockKernel('BatchMatMul')).toBeDefined();
    expect(registered('Sum')).toBe(fix('Sum'));
  });

  it('refuses a name it does not register, naming those it does', () => {
    process.env['SACCADE_WASM_KERNELS_OFF'] = 'SaccadeSmoothMaxStem,Conv3D';
    unregisterWasmKernels();
    expect(() => registerWasmKernels()).toThrow(/^SACCADE_WASM_KERNELS_OFF names kernels Saccade does not register: Conv3D; expected some of SaccadeAdam, Add, BatchMatMul, /);
  });
});
