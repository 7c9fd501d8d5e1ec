import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVisualSearchSource } from '@saccade/env-procedural';
import { maskedCrossEntropy, VisionLanguageModel, type SftExample } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoisyGroundingAgent } from '../agents/noisy-grounding-agent';
import { TaskLookup } from '../agents/task-lookup';
import { generateSftData } from '../generate/generate-sft-data';
import { readSftFile } from './sft-file';
import { loadSftExamples, sftMessages, trainOnSftExamples } from './sft-examples';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeAll(() => initTensor());

const lossOn = (model: VisionLanguageModel, examples: readonly SftExample[]) => tf.tidy(() => maskedCrossEntropy(model, examples).dataSync()[0]!);

describe('the SFT file trains the built-in model', () => {
  it('a few SFT steps of the tiny model on a linearised MCTS file lower the loss on it, without leaking tensors', async () => {
    const source = createVisualSearchSource({ split: 'test' });
    const lookup = await TaskLookup.fromTasks([await source.get(0), await source.get(1)]);
    const output = join(scratch, 'sft.jsonl');
    await generateSftData({ method: 'mcts', source, taskIndices: [0, 1], agent: createNoisyGroundingAgent({ lookup, seed: 1 }), output, maxPerTask: 4 });
    const records = await readSftFile(output);
    expect(records).toHaveLength(8);

    // The tiny preset, with room for a question and a backtracking chain (character tokens).
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { maxSequenceLength: 768 } });
    const { examples, skipped } = await loadSftExamples(model, records, { dropSystem: true });
    expect(examples.length + skipped.length).toBe(8);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const example of examples) expect(example.lossMask.reduce((sum, flag) => sum + flag, 0)).toBeGreaterThan(30);

    const tensors = tf.memory().numTensors;
    const before = lossOn(model, examples);
    const losses = trainOnSftExamples(model, examples, { steps: 8, batchSize: 4, learningRate: 5e-3 });
    const after = lossOn(model, examples);
    expect(losses).toHaveLength(8);
    expect(after).toBeLessThan(before * 0.8);
    expect(tf.memory().numTensors).toBe(tensors);
    model.dispose();
  });

  it("splits each message's <image> placeholders into image parts, in order", () => {
    const image = (byte: number) => ({ data: new Uint8Array([byte]), mediaType: 'image/png' as const });
    const messages = sftMessages(
      [
        { role: 'system', content: 'Look.' },
        { role: 'user', content: '<image>\nQ?' },
        { role: 'assistant', content: 'crop' },
        { role: 'user', content: '<observation>\n<image>\n</observation>' },
        { role: 'assistant', content: 'A' },
      ],
      [image(1), image(2)],
      { dropSystem: true },
    );
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'image', image: image(1) }, { type: 'text', text: '\nQ?' }] },
      { role: 'assistant', content: 'crop' },
      { role: 'user', content: [{ type: 'text', text: '<observation>\n' }, { type: 'image', image: image(2) }, { type: 'text', text: '\n</observation>' }] },
      { role: 'assistant', content: 'A' },
    ]);
  });
});
