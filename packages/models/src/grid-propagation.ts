import * as tf from '@tensorflow/tfjs-core';
import { gelu, layerNorm, linear, type WeightLookup } from './transformer-layers';

export interface GridShape {
  /** Images in the batch. */
  images: number;
  /** Encoded patches per image side. */
  patches: number;
  /** Patches per grid-cell side (each cell is merge × merge patches). */
  merge: number;
}

/**
 * [images·patches², d] row-major → [images·cells², merge²·d]: each merge × merge block of patches
 * concatenated. Rank-4 transposes only: [block rows, m, block columns, m·d] → [block rows, block
 * columns, m, m·d].
 */
export function mergePatchBlocks(x: tf.Tensor2D, { images, patches, merge }: GridShape): tf.Tensor2D {
  const d = x.shape[1];
  const cells = patches / merge;
  const grouped = tf.transpose(tf.reshape(x, [images * cells, merge, cells, merge * d]), [0, 2, 1, 3]);
  return tf.reshape(grouped, [images * cells * cells, merge * merge * d]);
}

/** [images·cells², d] → [images·patches², d]: every patch of a cell gets the cell's vector. */
export function spreadCellsToPatches(x: tf.Tensor2D, { images, patches, merge }: GridShape): tf.Tensor2D {
  const d = x.shape[1];
  const cells = patches / merge;
  // Concatenations (their gradients are slices) rather than tile, whose wasm gradient is a loop.
  const wide = tf.concat(new Array<tf.Tensor>(merge).fill(tf.reshape(x, [images * cells, cells, 1, d])), 2);
  const tall = tf.concat(new Array<tf.Tensor>(merge).fill(tf.reshape(wide, [images * cells, 1, cells * merge, d])), 1);
  return tf.reshape(tall, [images * patches * patches, d]);
}

/**
 * The four neighbours of every cell, [images·cells², 4d] in the order above, right, below, left;
 * zeros beyond the border (so the border is visible to the layer).
 */
export function cellNeighbours(x: tf.Tensor2D, images: number, cells: number): tf.Tensor2D {
  const d = x.shape[1];
  const grid = tf.reshape(x, [images, cells, cells, d]);
  const moved = [
    shiftRows(grid, images, cells, d, 'above'),
    shiftColumns(grid, images, cells, d, 'right'),
    shiftRows(grid, images, cells, d, 'below'),
    shiftColumns(grid, images, cells, d, 'left'),
  ];
  return tf.reshape(tf.concat(moved, 3), [images * cells * cells, 4 * d]);
}

/** Padding one side and slicing from the other moves every cell's vector one step. */
function shiftRows(grid: tf.Tensor, images: number, cells: number, d: number, from: 'above' | 'below'): tf.Tensor {
  // 'above': cell (r, c) receives (r − 1, c); 'below': (r + 1, c).
  const padded = tf.pad(grid, [[0, 0], from === 'above' ? [1, 0] : [0, 1], [0, 0], [0, 0]]);
  return tf.slice(padded, [0, from === 'above' ? 0 : 1, 0, 0], [images, cells, cells, d]);
}

function shiftColumns(grid: tf.Tensor, images: number, cells: number, d: number, from: 'left' | 'right'): tf.Tensor {
  // 'left': cell (r, c) receives (r, c − 1); 'right': (r, c + 1).
  const padded = tf.pad(grid, [[0, 0], [0, 0], from === 'left' ? [1, 0] : [0, 1], [0, 0]]);
  return tf.slice(padded, [0, 0, from === 'left' ? 0 : 1, 0], [images, cells, cells, d]);
}

/**
 * Local layers over a coarse grid of the image, like a Value Iteration Network: patches are merged
 * into cells, and each layer updates every cell from itself and its four neighbours (pre-LN,
 * residual). Eight layers carry information eight cells across the grid, so a cell can know
 * whether a safe path leads from it to the goal: what a two-layer decoder cannot work out per
 * token. The result is spread back onto the cell's patches and added to them.
 */
export function gridPropagation(
  encoded: tf.Tensor2D,
  weight: WeightLookup,
  shape: GridShape,
  layers: number,
  epsilon: number,
): tf.Tensor2D {
  const cells = shape.patches / shape.merge;
  let x = linear(mergePatchBlocks(encoded, shape), weight('grid.input.weight'), weight('grid.input.bias'));
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `grid.${layer}`;
    const normed = layerNorm(x, weight(`${prefix}.norm.gain`), weight(`${prefix}.norm.bias`), epsilon) as tf.Tensor2D;
    const local = tf.concat([normed, cellNeighbours(normed, shape.images, cells)], 1);
    const hidden = gelu(linear(local, weight(`${prefix}.up.weight`), weight(`${prefix}.up.bias`))) as tf.Tensor2D;
    x = tf.add(x, linear(hidden, weight(`${prefix}.down.weight`), weight(`${prefix}.down.bias`)));
  }
  const normed = layerNorm(x, weight('grid.outputNorm.gain'), weight('grid.outputNorm.bias'), epsilon) as tf.Tensor2D;
  const projected = linear(normed, weight('grid.output.weight'), weight('grid.output.bias'));
  return tf.add(encoded, spreadCellsToPatches(projected, shape));
}
