import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend, solidImage, trainStep } from '../test/helpers';
import type { MarkedSequence } from '../test/target-token-loss.mjs';
import {
  applyChatTemplate,
  CheckpointError,
  createAdamOptimizer,
  imageTokenCount,
  loadCheckpoint,
  loadCheckpointWeights,
  saveCheckpoint,
  VisionLanguageModel,
} from './index';

let folder: string;
beforeAll(async () => {
  await initBackend();
  folder = await mkdtemp(join(tmpdir(), 'saccade-models-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function examples(model: VisionLanguageModel): MarkedSequence[] {
  const sequence = applyChatTemplate(
    model.tokenizer,
    [
      { role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }] },
      { role: 'assistant', content: '<answer>Left</answer>' },
    ],
    { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
  );
  return [{ tokens: sequence.tokens, images: [solidImage(64, [10, 200, 90])], lossMask: sequence.assistantMask }];
}

describe('checkpoints', () => {
  it('round-trips weights and Adam state: same outputs, same next step', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 7 });
    const optimizer = createAdamOptimizer({ learningRate: 3e-3 });
    const batch = examples(model);
    for (let step = 0; step < 3; step++) trainStep(model, optimizer, batch);
    const path = join(folder, 'step-3');
    await saveCheckpoint(path, { model, optimizer, metadata: { step: 3 } });
    // Saving again over it replaces it atomically and leaves no temporary folder behind.
    await saveCheckpoint(path, { model, optimizer, metadata: { step: 3 } });
    expect((await readdir(folder)).sort()).toEqual(['step-3']);

    const loaded = await loadCheckpoint(path, { expectedConfig: model.config });
    expect(loaded.metadata).toEqual({ step: 3 });
    const prompt = { tokens: batch[0]?.tokens.slice(0, -4) ?? [], images: batch[0]?.images ?? [] };
    const options = { prompts: [prompt], n: 2, maxTokens: 6, seed: 3 };
    expect(await loaded.model.generate(options)).toEqual(await model.generate(options));
    const fresh = VisionLanguageModel.create({ preset: 'tiny', seed: 99 });
    await loadCheckpointWeights(path, fresh);
    expect(await fresh.generate(options)).toEqual(await loaded.model.generate(options));
    // Adam moments and step survived: the next update is the same.
    const next = trainStep(model, optimizer, batch).loss;
    const nextLoaded = trainStep(loaded.model, loaded.optimizer ?? createAdamOptimizer({ learningRate: 0 }), batch).loss;
    expect(nextLoaded).toBeCloseTo(next, 5);
    const after = trainStep(model, optimizer, batch).loss;
    const afterLoaded = trainStep(loaded.model, loaded.optimizer ?? createAdamOptimizer({ learningRate: 0 }), batch).loss;
    expect(afterLoaded).toBeCloseTo(after, 4);

    optimizer.dispose();
    loaded.optimizer?.dispose();
    [model, loaded.model, fresh].forEach((m) => m.dispose());
  });

  it("restores Adam's β1^t and β2^t as the run held them, so that a resumed run's updates are bit-identical", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
    const optimizer = createAdamOptimizer({ learningRate: 1e-3 });
    // 376 updates: tfjs multiplies β^t by β each step in float32, which pow(β, t + 1) does not reproduce bit for bit.
    const gradients = model.trainableVariables.map((variable) => tf.onesLike(variable));
    for (let step = 0; step < 376; step++) optimizer.applyGradients(model.trainableVariables.map((variable, index) => ({ name: variable.name, tensor: gradients[index]! })));
    tf.dispose(gradients);
    const path = join(folder, 'adam-376');
    await saveCheckpoint(path, { model, optimizer });
    const loaded = await loadCheckpoint(path);
    const held = (adam: tf.AdamOptimizer): number[] => {
      const { accBeta1, accBeta2 } = adam as unknown as { accBeta1: tf.Variable; accBeta2: tf.Variable };
      return [accBeta1.dataSync()[0]!, accBeta2.dataSync()[0]!];
    };
    expect(held(loaded.optimizer!)).toEqual(held(optimizer));
    // The next update moves both copies' weights to the same floats.
    const batch = examples(model);
    trainStep(model, optimizer, batch);
    trainStep(loaded.model, loaded.optimizer!, batch);
    expect(Array.from(loaded.model.trainableVariables[0]!.dataSync())).toEqual(Array.from(model.trainableVariables[0]!.dataSync()));
    optimizer.dispose();
    loaded.optimizer?.dispose();
    [model, loaded.model].forEach((m) => m.dispose());
  });

  it('loads a checkpoint written before the vision switches were grouped (a flat config.json), and names a bad field in it', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 5, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' }, pointer: true, readout: 'max' } } });
    const path = join(folder, 'flat');
    await saveCheckpoint(path, { model });
    expect(JSON.parse(await readFile(join(path, 'config.json'), 'utf8'))).toEqual(model.config);
    // config.json as such a checkpoint holds it.
    const flat = { imageSize: 32, patchSize: 8, mergeSize: 1, gridLayers: 0, gridMerge: 1, maxSequenceLength: 256, layerNormEpsilon: 1e-5, modelDimension: 32, headCount: 2, encoderLayers: 1, decoderLayers: 1, mlpRatio: 2, stemChannels: 4, stemPool: 2, stemPooling: 'max', gridPointer: true, imageReadout: 'max', vocabularySize: model.config.vocabularySize };
    await writeFile(join(path, 'config.json'), JSON.stringify(flat, null, 2));
    const loaded = await loadCheckpoint(path, { expectedConfig: model.config });
    expect(loaded.model.config).toEqual(model.config);
    const prompt = { tokens: examples(model)[0]!.tokens.slice(0, -4), images: examples(model)[0]!.images ?? [] };
    const options = { prompts: [prompt], n: 2, maxTokens: 6, seed: 3 };
    expect(await loaded.model.generate(options)).toEqual(await model.generate(options));

    await writeFile(join(path, 'config.json'), JSON.stringify({ ...flat, stemPooling: 'median' }));
    const error = await loadCheckpoint(path).catch((caught: unknown) => caught);
    expect(CheckpointError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ field: 'stemPooling', received: 'median' });
    expect((error as Error).message).toBe(`Checkpoint ${path} has a config.json no model can be built from: ModelConfig.stemPooling must be 'mean' or 'max'; got median.`);
    // A grouped config that differs inside vision is named by its path.
    const other = VisionLanguageModel.create({ preset: 'tiny', config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' } } } });
    await writeFile(join(path, 'config.json'), JSON.stringify(model.config));
    const mismatch = await loadCheckpointWeights(path, other).catch((caught: unknown) => caught);
    expect(mismatch).toMatchObject({ field: 'vision.pointer', expected: false, received: true });
    expect((mismatch as Error).message).toBe(`Checkpoint ${path} is for another model: config.vision.pointer is true, expected false.`);
    [model, loaded.model, other].forEach((m) => m.dispose());
  });

  it('refuses a checkpoint of another config, naming the field', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny' });
    const path = join(folder, 'tiny');
    await saveCheckpoint(path, { model });
    const other = VisionLanguageModel.create({ preset: 'tiny', config: { decoderLayers: 2 } });
    const error = await loadCheckpointWeights(path, other).catch((caught: unknown) => caught);
    expect(CheckpointError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'Saccade_CheckpointError', field: 'decoderLayers', expected: 2, received: 1 });
    expect((error as Error).message).toContain('decoderLayers');
    const missing = await loadCheckpoint(join(folder, 'nothing')).catch((caught: unknown) => caught);
    expect(CheckpointError.isInstance(missing)).toBe(true);
    model.dispose();
    other.dispose();
  });
});
