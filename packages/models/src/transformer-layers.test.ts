import * as tf from '@tensorflow/tfjs-core';
import type { Message } from '@saccade/spec';
import { wasmKernelConfigs } from '@saccade/tensor';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellImage, initBackend, trainStep } from '../test/helpers';
import type { MarkedSequence } from '../test/target-token-loss.mjs';
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, VisionLanguageModel, type ModelSequence } from './index';

beforeAll(initBackend);

const attentionKernels = wasmKernelConfigs.filter((kernel) => kernel.kernelName.startsWith('SaccadeFusedAttention'));

/** fn with the fused attention kernels unregistered: fusedAttention then runs tfjs's ops, as the layers did before. */
function withOps<T>(fn: () => T): T {
  for (const kernel of attentionKernels) tf.unregisterKernel(kernel.kernelName, 'wasm');
  try {
    return fn();
  } finally {
    for (const kernel of attentionKernels) tf.registerKernel(kernel);
  }
}

function sequence(model: VisionLanguageModel, text: string, answer: string | undefined, cell: number): MarkedSequence & ModelSequence {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text }] }];
  const marked = applyChatTemplate(model.tokenizer, answer === undefined ? messages : [...messages, { role: 'assistant', content: answer }], {
    imageTokens: imageTokenCount(model.config),
    addGenerationPrompt: answer === undefined,
  });
  return { tokens: marked.tokens, images: [cellImage(32, cell, [240, 240, 240], [224, 32, 32])], lossMask: marked.assistantMask };
}

describe('self-attention through fusedAttention', () => {
  it('runs the fused kernels on wasm', () => {
    expect(attentionKernels.map((kernel) => kernel.kernelName)).toEqual(['SaccadeFusedAttention', 'SaccadeFusedAttentionGrad']);
    expect(attentionKernels.map((kernel) => tf.getKernel(kernel.kernelName, 'wasm'))).toEqual(attentionKernels);
  });

  it("trains the same with the fused attention kernels as with tfjs's ops: 20 steps' losses within 1e-4", () => {
    const config = { imageSize: 32, patchSize: 8 };
    const train = () => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 12, config });
      const optimizer = createAdamOptimizer({ learningRate: 3e-3 });
      // Answers of different lengths: right padding, so the causal mask and padded rows both occur.
      const examples = ['Up', 'Down now', 'Left', 'Right, then up'].map((answer, index) => sequence(model, 'Which way?', `<answer>${answer}</answer>`, 3 * index + 2));
      const losses = Array.from({ length: 20 }, () => trainStep(model, optimizer, examples).loss);
      optimizer.dispose();
      model.dispose();
      return losses;
    };
    const fused = train();
    const ops = withOps(train);
    expect(fused[19]!).toBeLessThan(fused[0]! * 0.6);
    fused.forEach((loss, step) => expect(Math.abs(loss - ops[step]!), `step ${step}: fused ${loss}, ops ${ops[step]}`).toBeLessThanOrEqual(1e-4));
  });

  it("generates the same tokens as tfjs's ops, with and without the KV cache (left-padded prompts)", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4, config: { imageSize: 32, patchSize: 8 } });
    // Different lengths: the shorter prompt is left-padded, so its padding rows mask every key.
    const prompts = [sequence(model, 'Where?', undefined, 3), sequence(model, 'A longer question here?', undefined, 9)];
    const generate = async (useCache: boolean) =>
      (await model.generate({ prompts, n: 2, temperature: 0, maxTokens: 10, seed: 5, useCache })).map((samples) => samples.map((sample) => sample.tokens));
    const fused = [await generate(true), await generate(false)];
    for (const kernel of attentionKernels) tf.unregisterKernel(kernel.kernelName, 'wasm');
    let ops: number[][][][];
    try {
      ops = [await generate(true), await generate(false)];
    } finally {
      for (const kernel of attentionKernels) tf.registerKernel(kernel);
    }
    expect(fused[0]!.flat(2).length).toBeGreaterThan(10);
    expect(fused).toEqual(ops);
    expect(fused[0]).toEqual(fused[1]);
    model.dispose();
  });
});

describe('a prefill at the last position only (forward with lastPosition)', () => {
  it("gives the full forward's last-position logits and the same KV cache, left-padded prompts included", () => {
    const model = VisionLanguageModel.create({ preset: 'small', seed: 3, config: { imageSize: 32, patchSize: 8 } });
    const prompts = [sequence(model, 'Where?', undefined, 3), sequence(model, 'A longer question here?', undefined, 9), sequence(model, 'Mid length?', undefined, 1)];
    const inputs = model.prepare(prompts, 'left');
    const { batch, length } = inputs;
    const [full, last] = [false, true].map((lastPosition) =>
      tf.tidy(() => {
        const output = model.forward(inputs, { cache: true, lastPosition });
        const logits = lastPosition ? output.logits : tf.reshape(tf.slice(tf.reshape(output.logits, [batch, length, -1]), [0, length - 1, 0], [batch, 1, -1]), [batch, -1]);
        return { logits: logits.arraySync() as number[][], cache: output.cache!.map((layer) => [layer.keys.arraySync(), layer.values.arraySync()]) };
      }),
    );
    expect(last!.logits).toHaveLength(3);
    expect(last!.cache).toHaveLength(model.config.decoderLayers);
    const flat = (value: unknown): number[] => (value as number[]).flat(4) as number[];
    // The last layer's keys and values are the same products; its last query attends through another kernel.
    expect(flat(last!.cache)).toEqual(flat(full!.cache));
    const differences = last!.logits.flat().map((value, index) => Math.abs(value - full!.logits.flat()[index]!));
    expect(Math.max(...differences)).toBeLessThan(1e-5);
    inputs.dispose();
    model.dispose();
  });

  it('is refused with the grid pointer, whose terms read every position', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1, config: { imageSize: 32, patchSize: 8, vision: { pointer: true, grid: { layers: 1, cellPatches: 1 } } } });
    const inputs = model.prepare([sequence(model, 'Where?', undefined, 2)], 'left');
    expect(() => tf.tidy(() => model.forward(inputs, { cache: true, lastPosition: true }).logits)).toThrow(/options.lastPosition.*config.vision.pointer/);
    inputs.dispose();
    model.dispose();
  });
});
