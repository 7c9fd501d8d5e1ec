import * as tf from '@tensorflow/tfjs-core';
import { wasmKernelConfigs } from '@saccade/tensor';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellImage, initBackend, solidImage, trainStep } from '../test/helpers';
import { batchTargetTokenLoss, type MarkedSequence } from '../test/target-token-loss.mjs';
import {
  applyChatTemplate,
  countParameters,
  createAdamOptimizer,
  imageTokenCount,
  MODEL_PRESETS,
  VisionLanguageModel,
  type ModelConfigOverrides,
} from './index';

beforeAll(initBackend);

function example(model: VisionLanguageModel, answer: string, image = solidImage(64, [200, 30, 30])): MarkedSequence {
  const sequence = applyChatTemplate(
    model.tokenizer,
    [
      { role: 'user', content: [{ type: 'text', text: 'Go?' }, { type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }] },
      { role: 'assistant', content: answer },
    ],
    { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
  );
  return { tokens: sequence.tokens, images: [image], lossMask: sequence.assistantMask };
}

describe('VisionLanguageModel', () => {
  it('counts its parameters per preset', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny' });
    expect(model.parameterCount).toBe(model.trainableVariables.reduce((sum, v) => sum + v.size, 0));
    expect(countParameters({ ...MODEL_PRESETS.small, vocabularySize: model.tokenizer.vocabularySize })).toBeGreaterThan(400_000);
    model.dispose();
  });

  it('returns per-token log-probs, entropies and values aligned with the tokens', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny' });
    const examples = [example(model, '<answer>Left</answer>'), example(model, 'Up')];
    const inputs = model.prepare(examples);
    const { logProbs, entropies, values } = model.logProbsAndValues(inputs);
    expect(logProbs.shape).toEqual([2, inputs.length]);
    expect(entropies.shape).toEqual([2, inputs.length]);
    expect(values.shape).toEqual([2, inputs.length]);
    const lp = logProbs.arraySync();
    expect(lp[0]?.[0]).toBe(0);
    expect(Math.max(...(lp[0] ?? []))).toBeLessThanOrEqual(0);
    // The longer row sees the same prefix as the shorter one: same log-probs there (causal mask).
    const shared = examples[1]?.tokens.length ?? 0;
    const common = examples[0]?.tokens.findIndex((token, index) => token !== examples[1]?.tokens[index]) ?? 0;
    expect(common).toBeLessThan(shared);
    for (let column = 0; column < common; column++) expect(lp[0]?.[column]).toBeCloseTo(lp[1]?.[column] ?? NaN, 4);
    tf.dispose([logProbs, entropies, values]);
    inputs.dispose();
    model.dispose();
  });

  it('places image features the same way whether slot columns are shared or not', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 5 });
    const first = example(model, 'Up', cellImage(64, 2, [0, 0, 0], [255, 0, 0]));
    const second = { ...first, tokens: [model.tokenizer.bosId, ...first.tokens], images: [cellImage(64, 9, [0, 90, 0], [255, 255, 0])] };
    const mixed = model.prepare([first, second]); // different slot columns: the gather path
    const alone = model.prepare([second]); // one row: the pad path
    expect(mixed.sharedImageRuns).toBeUndefined();
    expect(alone.sharedImageRuns).toHaveLength(1);
    const a = model.logProbsAndValues(mixed);
    const b = model.logProbsAndValues(alone);
    const fromMixed = a.logProbs.arraySync()[1] ?? [];
    (b.logProbs.arraySync()[0] ?? []).forEach((value, column) => expect(fromMixed[column]).toBeCloseTo(value, 4));
    tf.dispose([a.logProbs, a.entropies, a.values, b.logProbs, b.entropies, b.values]);
    mixed.dispose();
    alone.dispose();
    model.dispose();
  });

  it('has gradients that match finite differences (wasm, float32)', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3, config: { imageSize: 32, patchSize: 8, vision: { grid: { layers: 2, cellPatches: 2 } } } });
    const examples = [example(model, '<answer>Left</answer>', cellImage(32, 5, [20, 20, 200], [250, 250, 250]))];
    const checked = ['image.patch.weight', 'image.patchNorm.bias', 'decoder.0.norm1.bias', 'image.row', 'encoder.0.attention.qkv.weight', 'token.embedding', 'position.embedding', 'decoder.0.attention.qkv.weight', 'decoder.0.mlp.down.weight', 'head.weight', 'value.weight', 'decoder.norm.gain', 'grid.input.weight', 'grid.0.up.weight', 'grid.1.down.weight', 'grid.1.norm.gain', 'grid.output.weight'];
    expectGradientsMatchFiniteDifferences(model, examples, checked);
    model.dispose();
  });

  it('has a pixel stem whose gradients match finite differences', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2 } } } });
    expect(model.weight('image.stem.weight').shape).toEqual([3, 4]);
    // 16 blocks of 2 × 2 pixels a patch, 4 features each.
    expect(model.weight('image.patch.weight').shape).toEqual([64, model.config.modelDimension]);
    const examples = [example(model, '<answer>Left</answer>', cellImage(32, 5, [20, 20, 200], [250, 250, 250]))];
    expectGradientsMatchFiniteDifferences(model, examples, ['image.stem.weight', 'image.stem.bias', 'image.patch.weight', 'image.row']);
    model.dispose();
  });

  it('has a convolutional stem (vision.stem.kernel) whose gradients match finite differences', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max', kernel: 3 }, readout: 'conv', pointer: true } } });
    // 3 × 3 pixels of 3 values a feature.
    expect(model.weight('image.stem.weight').shape).toEqual([27, 4]);
    expect(model.config.vision.stem).toEqual({ channels: 4, pool: 2, pooling: 'max', kernel: 3 });
    const examples = [example(model, '<answer>Left</answer>', cellImage(32, 5, [20, 20, 200], [250, 250, 250]))];
    expectGradientsMatchFiniteDifferences(model, examples, ['image.stem.weight', 'image.stem.bias', 'image.patch.weight', 'readout.conv.weight']);
    model.dispose();
  });

  it.each(['pointer', 'max', 'conv'] as const)('has an image readout (%s) whose gradients match finite differences', (imageReadout) => {
    const stem = imageReadout === 'conv' ? { stem: { channels: 4, pool: 2, pooling: 'max' as const } } : {};
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4, config: { imageSize: 32, patchSize: 8, vision: { ...stem, pointer: true, readout: imageReadout } } });
    const examples = [example(model, '<answer>Left</answer>', cellImage(32, 5, [20, 20, 200], [250, 250, 250]))];
    const readout = {
      max: ['readout.value.weight', 'readout.up.weight', 'readout.down.weight'],
      conv: ['readout.conv.weight', 'readout.conv.bias', 'readout.value.weight', 'readout.up.weight', 'image.stem.weight'],
      pointer: ['readout.up.weight', 'readout.down.weight', 'pointer.query.weight', 'pointer.key.weight'],
    }[imageReadout];
    expectGradientsMatchFiniteDifferences(model, examples, [...readout, 'image.patch.weight']);
    model.dispose();
  });

  it("reads a shape the same wherever it lies with the 'conv' readout (moved by a stem block or a patch), where the 'max' readout's summary moves with it", () => {
    // A red plus, 5 px across, on a pale image: 2-px stem blocks, 8-px patches.
    const plusAt = (x: number, y: number) => {
      const image = solidImage(32, [240, 240, 240]);
      for (let offset = -2; offset <= 2; offset++) {
        image.data.set([224, 32, 32], ((y + offset) * 32 + x) * 3);
        image.data.set([224, 32, 32], (y * 32 + x + offset) * 3);
      }
      return image;
    };
    const summaries = (readout: 'conv' | 'max') => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 6, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' }, pointer: true, readout } } });
      const result = [plusAt(12, 12), plusAt(14, 12), plusAt(12, 20), plusAt(20, 14)].map((image) =>
        tf.tidy(() => {
          const inputs = model.prepare([example(model, 'Up', image)]);
          const summary = model.readoutSummaries(inputs.patches!).arraySync()[0]!;
          inputs.dispose();
          return summary;
        }),
      );
      model.dispose();
      return result;
    };
    const difference = (a: number[], b: number[]) => Math.max(...a.map((value, index) => Math.abs(value - b[index]!)));
    const [conv, ...moved] = summaries('conv');
    for (const other of moved) expect(difference(conv!, other!)).toBeLessThan(1e-5);
    const [max, ...maxMoved] = summaries('max');
    for (const other of maxMoved) expect(difference(max!, other!)).toBeGreaterThan(1e-3);
  });

  it('sees a small dot the same wherever it lies in its patch once the stem pools the whole patch', () => {
    const dotAt = (x: number, y: number) => {
      const image = solidImage(32, [240, 240, 240]);
      for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) image.data.set([224, 32, 32], ((y + dy) * 32 + x + dx) * 3);
      return image;
    };
    const tokens = (vision: ModelConfigOverrides['vision']) => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 6, config: { imageSize: 32, patchSize: 8, vision } });
      const encode = (image: ReturnType<typeof dotAt>) =>
        tf.tidy(() => {
          const inputs = model.prepare([example(model, 'Up', image)]);
          const encoded = model.encodeImages(inputs.patches!).arraySync();
          inputs.dispose();
          return encoded;
        });
      // Both dots lie in the patch at row 1, column 2 (pixels 16–23, 8–15).
      const result = [encode(dotAt(17, 9)), encode(dotAt(21, 13))];
      model.dispose();
      return result;
    };
    const [pooledA, pooledB] = tokens({ stem: { channels: 4, pool: 8 } });
    pooledA!.flat().forEach((value, index) => expect(value).toBeCloseTo(pooledB!.flat()[index]!, 5));
    const [rawA, rawB] = tokens({});
    expect(Math.max(...rawA!.flat().map((value, index) => Math.abs(value - rawB!.flat()[index]!)))).toBeGreaterThan(1e-3);
  });

  it("pools the stem's features by a smooth maximum: gradients match finite differences, and a dot moves its patch's token more than a mean lets it", () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' } } } });
    const examples = [example(model, '<answer>Left</answer>', cellImage(32, 5, [20, 20, 200], [250, 250, 250]))];
    expectGradientsMatchFiniteDifferences(model, examples, ['image.stem.weight', 'image.stem.bias', 'image.patch.weight']);
    model.dispose();
    // One 2 × 2 red dot in a pale 8 × 8 patch, pooled over the whole patch.
    const dot = solidImage(32, [240, 240, 240]);
    for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) dot.data.set([224, 32, 32], ((9 + dy) * 32 + 17 + dx) * 3);
    const shift = (stemPooling: 'mean' | 'max') => {
      const pooled = VisionLanguageModel.create({ preset: 'tiny', seed: 6, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 8, pooling: stemPooling } } } });
      const encode = (image: typeof dot) =>
        tf.tidy(() => {
          const inputs = pooled.prepare([example(pooled, 'Up', image)]);
          const encoded = pooled.encodeImages(inputs.patches!).arraySync();
          inputs.dispose();
          return encoded.flat();
        });
      const [withDot, blank] = [encode(dot), encode(solidImage(32, [240, 240, 240]))];
      pooled.dispose();
      return Math.max(...withDot.map((value, index) => Math.abs(value - blank[index]!)));
    };
    const [maxShift, meanShift] = [shift('max'), shift('mean')];
    expect(maxShift).toBeGreaterThan(meanShift * 4);
  });

  it("trains the same with the smooth-max stem's fused kernels as with tfjs's ops: 20 steps' losses within 1e-4", () => {
    const config: ModelConfigOverrides = { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' }, pointer: true, readout: 'pointer' } };
    const dots = [3, 6, 9, 12].map((cell) => cellImage(32, cell, [240, 240, 240], [224, 32, 32]));
    const train = () => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 11, config });
      const optimizer = createAdamOptimizer({ learningRate: 3e-3 });
      const examples = dots.map((image, index) => example(model, `<answer>${['Up', 'Down', 'Left', 'Right'][index]}</answer>`, image));
      const losses = Array.from({ length: 20 }, () => trainStep(model, optimizer, examples).loss);
      optimizer.dispose();
      model.dispose();
      return losses;
    };
    const kernels = wasmKernelConfigs.filter((kernel) => kernel.kernelName.startsWith('SaccadeSmoothMaxStem'));
    expect(kernels.map((kernel) => tf.getKernel(kernel.kernelName, 'wasm'))).toEqual(kernels);
    const fused = train();
    for (const kernel of kernels) tf.unregisterKernel(kernel.kernelName, 'wasm');
    let ops: number[];
    try {
      ops = train();
    } finally {
      for (const kernel of kernels) tf.registerKernel(kernel);
    }
    expect(fused[19]!).toBeLessThan(fused[0]! * 0.5);
    fused.forEach((loss, step) => expect(Math.abs(loss - ops[step]!), `step ${step}: fused ${loss}, ops ${ops[step]}`).toBeLessThanOrEqual(1e-4));
  });

  it.each([1, 3])('encodes a batch of images larger than the stem works on at once the same as each image alone (kernel %i)', (kernel) => {
    // A convolution's slices are whole images (256 of 16 patches); the per-pixel stem's, 4,096 patches.
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 7, config: { imageSize: 32, patchSize: 8, vision: { stem: { channels: 2, pool: 4, kernel } } } });
    const images = Array.from({ length: 260 }, (_, index) => cellImage(32, index % 16, [240, 240, 240], [200, 20 + index, 20]));
    const encode = (batch: typeof images) =>
      tf.tidy(() => {
        const inputs = model.prepare(batch.map((image) => example(model, 'Up', image)));
        const encoded = model.encodeImages(inputs.patches!).arraySync();
        inputs.dispose();
        return encoded;
      });
    const before = tf.memory().numTensors;
    const all = encode(images); // 260 images of 16 patches: more than 4,096 patches, in slices
    expect(tf.memory().numTensors).toBe(before);
    for (const index of [0, 255, 259]) {
      const alone = encode([images[index]!]);
      alone.forEach((row, patch) => row.forEach((value, column) => expect(all[index * 16 + patch]![column]).toBeCloseTo(value, 4)));
    }
    model.dispose();
  });

  it('leaks no tensors across training and generation steps', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny' });
    const optimizer = createAdamOptimizer({ learningRate: 1e-3 });
    const examples = [example(model, '<answer>Left</answer>')];
    const prompt = { tokens: examples[0]?.tokens.slice(0, -5) ?? [], images: examples[0]?.images ?? [] };
    const round = async (): Promise<void> => {
      trainStep(model, optimizer, examples);
      await model.generate({ prompts: [prompt, prompt], n: 3, maxTokens: 6 });
      await model.generate({ prompts: [prompt], maxTokens: 3, useCache: false });
    };
    await round(); // creates Adam's slots
    const before = tf.memory().numTensors;
    for (let step = 0; step < 3; step++) await round();
    expect(tf.memory().numTensors).toBe(before);
    optimizer.dispose();
    model.dispose();
  });
});

it('creating and disposing a model leaves no tensors behind', () => {
  const before = tf.memory().numTensors;
  VisionLanguageModel.create({ preset: 'tiny' }).dispose();
  expect(tf.memory().numTensors).toBe(before);
});

/** Checks each named parameter's largest gradient coordinate against a central difference of the loss. */
function expectGradientsMatchFiniteDifferences(model: VisionLanguageModel, examples: MarkedSequence[], checked: string[]): void {
  // Cross-entropy plus a value term, so that the value head is checked too.
  const loss = (): tf.Scalar =>
    tf.tidy(() => {
      const inputs = model.prepare(examples);
      const { values } = model.logProbsAndValues(inputs);
      const result = tf.add(batchTargetTokenLoss(model, examples), tf.mean(tf.square(tf.sub(values, 0.5)))) as tf.Scalar;
      inputs.dispose();
      return result;
    });
  const { grads, value } = tf.variableGrads(loss, model.trainableVariables);
  value.dispose();
  const epsilon = 1e-2;
  for (const name of checked) {
    const variable = model.weight(name) as tf.Variable;
    const gradient = grads[variable.name]?.dataSync() ?? new Float32Array();
    // The coordinate with the largest gradient: a clear signal above float32 noise.
    let index = 0;
    gradient.forEach((g, i) => {
      if (Math.abs(g) > Math.abs(gradient[index] ?? 0)) index = i;
    });
    const original = variable.dataSync().slice();
    const at = (delta: number): number => {
      const values = original.slice();
      values[index] = (values[index] ?? 0) + delta;
      tf.tidy(() => variable.assign(tf.tensor(values, variable.shape)));
      return tf.tidy(() => loss().dataSync()[0] ?? NaN);
    };
    const numeric = (at(epsilon) - at(-epsilon)) / (2 * epsilon);
    tf.tidy(() => variable.assign(tf.tensor(original, variable.shape)));
    const analytic = gradient[index] ?? NaN;
    expect(Math.abs(numeric - analytic), `${name}[${index}]: numeric ${numeric} analytic ${analytic}`).toBeLessThanOrEqual(
      2e-2 * Math.max(Math.abs(analytic), Math.abs(numeric)) + 2e-4,
    );
  }
  tf.dispose(Object.values(grads));
}
