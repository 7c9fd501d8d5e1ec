import * as tf from '@tensorflow/tfjs-core';
import { smoothMaxStemOps } from '@saccade/tensor';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import { convStem } from './conv-stem';

beforeAll(initBackend);

/** Patch rows as writePatches lays them out ((py, px, channel) per patch, patches row-major), from an image's [y][x][c] values. */
function patchRows(image: number[][][], patch: number): tf.Tensor2D {
  const side = image.length;
  const grid = side / patch;
  const rows: number[][] = [];
  for (let row = 0; row < grid; row++) {
    for (let column = 0; column < grid; column++) {
      const values: number[] = [];
      for (let py = 0; py < patch; py++) for (let px = 0; px < patch; px++) values.push(...image[row * patch + py]![column * patch + px]!);
      rows.push(values);
    }
  }
  return tf.tensor2d(rows);
}

/** A [side][side][3] image of values in [-0.5, 0.5] from a seeded sequence. */
function noiseImage(side: number, seed: number): number[][][] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
  return Array.from({ length: side }, () => Array.from({ length: side }, () => [next(), next(), next()]));
}

describe('convStem', () => {
  it.each(['max', 'mean'] as const)('with only the centre tap is the per-pixel stem (%s pooling): the same blocks, in the same order', (pooling) => {
    const channels = 4;
    const pixelWeight = tf.tensor2d([0.9, -1.2, 0.3, 1.5, -0.4, 0.8, 1.1, -0.6, 0.2, 0.7, -1.3, 0.5], [3, channels]);
    const bias = tf.tensor1d([0.1, -0.05, 0.02, 0]);
    // A 3 × 3 kernel, rows (ky, kx, channel): only (1, 1) is set, so each feature reads its own pixel.
    const kernel = tf.tidy(() => tf.concat([tf.zeros([12, channels]), pixelWeight, tf.zeros([12, channels])], 0));
    const rows = patchRows(noiseImage(16, 3), 8);
    const convolved = convStem(rows, kernel, bias, { grid: 2, patchSize: 8, pool: 2, kernel: 3, pooling, sharpness: 30 });
    const perPixel =
      pooling === 'max'
        ? smoothMaxStemOps(rows, pixelWeight, bias, { patchSize: 8, pool: 2, sharpness: 30 })
        : tf.tidy(() => tf.reshape(tf.mean(tf.reshape(tf.relu(tf.add(tf.matMul(tf.reshape(rows, [-1, 3]), pixelWeight), bias)), [4, 4, 2, 4, 2, channels]), [2, 4]), [4, 16 * channels]));
    expect(convolved.shape).toEqual([4, 16 * channels]);
    const [a, b] = [convolved.dataSync(), perPixel.dataSync()];
    a.forEach((value, index) => expect(value).toBeCloseTo(b[index]!, 5));
    tf.dispose([pixelWeight, bias, kernel, rows, convolved, perPixel]);
  });

  it('reads across patch borders: a pixel at the start of one patch lights the last block of the patch to its left', () => {
    // One channel whose only tap is the pixel to the right: f(x, y) = relu(pixel(x + 1, y)'s red).
    const weight = tf.tidy(() => tf.tensor2d(Array.from({ length: 27 }, (_, row) => (row === (1 * 3 + 2) * 3 ? 1 : 0)), [27, 1]));
    const bias = tf.zeros([1]);
    const image = Array.from({ length: 16 }, () => Array.from({ length: 16 }, () => [0, 0, 0]));
    image[5]![8] = [0.5, 0, 0]; // the first column of the top-right patch (patches of 8 px)
    const rows = patchRows(image, 8);
    const pooled = convStem(rows, weight, bias, { grid: 2, patchSize: 8, pool: 8, kernel: 3, pooling: 'mean', sharpness: 30 });
    // Patch 0 (top left) holds x = 7, whose right neighbour is the lit pixel; patch 1 sees nothing.
    const values = Array.from(pooled.dataSync());
    expect(values[0]).toBeCloseTo(0.5 / 64, 6);
    expect(values.slice(1)).toEqual([0, 0, 0]);
    tf.dispose([weight, bias, rows, pooled]);
  });

  it('says what it expected when the weight is not a kernel of the given side', () => {
    const rows = tf.zeros([4, 8 * 8 * 3]) as tf.Tensor2D;
    const weight = tf.zeros([3, 4]);
    const bias = tf.zeros([4]);
    expect(() => convStem(rows, weight, bias, { grid: 2, patchSize: 8, pool: 2, kernel: 3, pooling: 'max', sharpness: 30 })).toThrow('weight must be [27, channels] (a 3 × 3 kernel over 3 values); got [3, 4]');
    tf.dispose([rows, weight, bias]);
  });
});
