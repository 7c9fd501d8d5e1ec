import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../src/index.js';
import { initWasm } from './compare-backends.js';
import { trainTinyVlm, type TinyVlmConfig } from './tiny-vlm.js';

beforeAll(initWasm);

const config: TinyVlmConfig = { vocab: 13, width: 16, heads: 2, tokens: 6, imageSize: 8, patch: 4 };

describe('a tiny embedding + conv + attention model', () => {
  it('trains on wasm with the loss curve of cpu, without leaking tensors', async () => {
    await tf.setBackend('cpu');
    const cpu = trainTinyVlm(config, 20);
    await tf.setBackend('wasm');
    const wasm = trainTinyVlm(config, 20);

    expect(wasm.losses[19]).toBeLessThan((wasm.losses[0] ?? 0) * 0.5);
    wasm.losses.forEach((loss, step) => {
      const reference = cpu.losses[step] ?? NaN;
      expect(Math.abs(loss - reference)).toBeLessThan(1e-3 * Math.max(1, Math.abs(reference)));
    });
    // Adam creates its slots on the first step; after that the count stays put.
    expect(new Set(wasm.tensorCounts.slice(1)).size).toBe(1);
    expect(new Set(cpu.tensorCounts.slice(1)).size).toBe(1);
  });
});
