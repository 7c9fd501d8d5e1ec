import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import { cellNeighbours, mergePatchBlocks, spreadCellsToPatches } from './grid-propagation';

beforeAll(initBackend);

describe('grid propagation layout', () => {
  it('merges each 2×2 block of patches into one cell, row by row', () => {
    // One image, 4×4 patches with d = 1 holding their own index.
    const patches = tf.tensor2d(Array.from({ length: 16 }, (_, index) => [index]));
    const merged = mergePatchBlocks(patches, { images: 1, patches: 4, merge: 2 });
    expect(merged.arraySync()).toEqual([
      [0, 1, 4, 5],
      [2, 3, 6, 7],
      [8, 9, 12, 13],
      [10, 11, 14, 15],
    ]);
    tf.dispose([patches, merged]);
  });

  it('spreads every cell back onto its patches', () => {
    const cells = tf.tensor2d([[1], [2], [3], [4], [5], [6], [7], [8]]); // two images of 2×2 cells
    const spread = spreadCellsToPatches(cells, { images: 2, patches: 4, merge: 2 });
    expect(spread.reshape([2, 4, 4]).arraySync()).toEqual([
      [
        [1, 1, 2, 2],
        [1, 1, 2, 2],
        [3, 3, 4, 4],
        [3, 3, 4, 4],
      ],
      [
        [5, 5, 6, 6],
        [5, 5, 6, 6],
        [7, 7, 8, 8],
        [7, 7, 8, 8],
      ],
    ]);
    tf.dispose([cells, spread]);
  });

  it('gives each cell its neighbours above, right, below and left, zeros past the border', () => {
    // 3×3 cells holding 1…9.
    const cells = tf.tensor2d([[1], [2], [3], [4], [5], [6], [7], [8], [9]]);
    const neighbours = cellNeighbours(cells, 1, 3);
    expect(neighbours.arraySync()).toEqual([
      [0, 2, 4, 0],
      [0, 3, 5, 1],
      [0, 0, 6, 2],
      [1, 5, 7, 0],
      [2, 6, 8, 4],
      [3, 0, 9, 5],
      [4, 8, 0, 0],
      [5, 9, 0, 7],
      [6, 0, 0, 8],
    ]);
    tf.dispose([cells, neighbours]);
  });
});
