import { afterEach, describe, expect, it } from 'vitest';
import { backendInfo, initTensor, tf, TensorBackendError } from './index.js';

afterEach(() => {
  delete process.env['SACCADE_BACKEND'];
  delete process.env['SACCADE_WASM_KERNELS_OFF'];
});

describe('initTensor', () => {
  it('names what it tried when a forced backend cannot load', async () => {
    process.env['SACCADE_BACKEND'] = 'tensorflow';
    const error = await initTensor().catch((caught: unknown) => caught);
    expect(TensorBackendError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("forced backend 'tensorflow'");
    expect(message).toContain('@tensorflow/tfjs-node-gpu');
    expect(message).toContain('@tensorflow/tfjs-node');
  });

  it('rejects an unknown SACCADE_BACKEND', async () => {
    process.env['SACCADE_BACKEND'] = 'webgpu';
    await expect(initTensor()).rejects.toThrow(/must be one of tensorflow, wasm, cpu/);
  });

  it('rejects a SACCADE_WASM_KERNELS_OFF that names a kernel Saccade does not register, rather than falling back to cpu', async () => {
    process.env['SACCADE_WASM_KERNELS_OFF'] = 'SaccadeGelu,Conv3D';
    const error = await initTensor().catch((caught: unknown) => caught);
    expect(TensorBackendError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^SACCADE_WASM_KERNELS_OFF names kernels Saccade does not register: Conv3D; expected some of /);
  });

  it('picks the best backend that loads, once, for concurrent callers', async () => {
    const [first, second] = await Promise.all([initTensor(), initTensor()]);
    expect(first).toBe(second);
    expect(first).toBe(tf);
    const info = backendInfo();
    expect(info?.name).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(info?.simd).toBe(true);
    expect(info?.kernelFixes).toBe(true);
    expect(info?.candidates.map((candidate) => [candidate.name, candidate.ok])).toEqual([
      ['tensorflow', false],
      ['wasm', true],
    ]);
    expect(info?.reason).toContain('tensorflow failed');
    // Later options do not change the choice.
    await initTensor({ backend: 'cpu' });
    expect(tf.getBackend()).toBe('wasm');
  });
});
