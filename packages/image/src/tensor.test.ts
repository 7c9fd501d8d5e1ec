import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import type { getTf } from '@saccade/tensor';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { decodeImage } from './decode-image.js';
import { fromTensor } from './from-tensor.js';
import { makeCoordinateImage, pixelAt } from './make-test-image.js';
import { CLIP_NORMALIZATION, toTensor, type TensorFlowLike } from './to-tensor.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('toTensor', () => {
  it("takes @saccade/tensor's namespace and tfjs-core's", () => {
    expectTypeOf<Awaited<ReturnType<typeof getTf>>>().toExtend<TensorFlowLike>();
    expectTypeOf<typeof tf>().toExtend<TensorFlowLike>();
  });

  it('gives float32 [height, width, 3] in [0, 1]', async () => {
    const tensor = await toTensor(makeCoordinateImage(30, 20), tf);
    expect(tensor.shape).toEqual([20, 30, 3]);
    expect(tensor.dtype).toBe('float32');
    const values = await tensor.array();
    expect(values[5]?.[10]).toEqual([10 / 255, 5 / 255, 7 / 255].map(Math.fround));
    tensor.dispose();
  });

  it('resizes and normalises', async () => {
    const tensor = await toTensor(makeCoordinateImage(30, 20), tf, { size: 8, normalize: CLIP_NORMALIZATION });
    expect(tensor.shape).toEqual([8, 8, 3]);
    const max = tf.tidy(() => tf.max(tensor).dataSync()[0] ?? 0);
    expect(max).toBeLessThan(0);
    tensor.dispose();
  });

  it('leaks nothing: only the returned tensor is allocated', async () => {
    const before = tf.memory().numTensors;
    const tensor = await toTensor(makeCoordinateImage(30, 20), tf);
    expect(tf.memory().numTensors).toBe(before + 1);
    tensor.dispose();
    const image = await fromTensor(tf.zeros([4, 4, 3]), tf);
    expect(image.width).toBe(4);
    expect(tf.memory().numTensors).toBe(before + 1); // the zeros tensor, still owned by the caller
  });
});

describe('fromTensor', () => {
  it('round-trips pixels through a tensor exactly, normalised or not', async () => {
    const source = makeCoordinateImage(30, 20);
    for (const normalize of [undefined, CLIP_NORMALIZATION]) {
      const tensor = await toTensor(source, tf, { normalize });
      const image = await fromTensor(tensor, tf, { normalize });
      tensor.dispose();
      expect(image).toMatchObject({ mediaType: 'image/png', width: 30, height: 20 });
      expect(Buffer.from((await decodeImage(image)).data).equals(Buffer.from(source.data))).toBe(true);
    }
  });

  it('reads int32 as 0–255, clamps, and takes batch-of-one and greyscale shapes', async () => {
    const ints = tf.tensor3d([[[300, -5, 128]]], [1, 1, 3], 'int32');
    expect(pixelAt(await decodeImage(await fromTensor(ints, tf)), 0, 0)).toEqual([255, 0, 128]);
    const batch = tf.fill([1, 2, 3, 1], 0.5);
    const grey = await decodeImage(await fromTensor(batch, tf));
    expect([grey.width, grey.height, ...pixelAt(grey, 2, 1)]).toEqual([3, 2, 128, 128, 128]);
    tf.dispose([ints, batch]);
  });

  it('refuses other shapes', async () => {
    const flat = tf.zeros([4, 4]);
    await expect(fromTensor(flat, tf)).rejects.toThrow(/expected shape \[height, width, 1\|3\|4\]/);
    flat.dispose();
  });
});
