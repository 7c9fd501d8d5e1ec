import * as tf from '@tensorflow/tfjs-core';
import { expShiftedByMax } from '@saccade/tensor';
import { patchGrid, type ModelConfig } from './model-config';
import { maxReadoutCache, maxReadoutStep, maxReadoutTerms, readoutOf } from './image-readout';
import type { WeightLookup } from './transformer-layers';

/**
 * The grid pointer: digit tokens can point at the latest image. A pointer attention (a query from
 * the decoder's final state, keys from each image token's own patch content) gives a distribution
 * over the latest complete image's tokens; its column and row marginals are log-probabilities for the digits 0…G−1 (G image
 * tokens per side), and two gates read from the state decide how much of each the digit logits
 * take. So `[c,r]` after a call's `[` names the cell the model looks at, learned as directly as a
 * classifier over the image's cells, where a digit read out of ordinary attention has to learn
 * *where* and *which digit says where* at once (a saddle a small model does not leave in a run's
 * budget: docs/models.md). With config.vision.pointerImage 'first' the pointer looks at the
 * sequence's first image instead (a point-crop tool's frame: its coordinates stay in the original
 * image's) while the readout keeps reading the latest (the crop).
 */

/** Side of the image-token grid the pointer names cells of. */
export function pointerGridSide(config: ModelConfig): number {
  return patchGrid(config) / config.vision.spatialMerge;
}

/** Width of the pointer's query and key projections (one attention head's). */
export function pointerDimension(config: ModelConfig): number {
  return Math.max(1, Math.floor(config.modelDimension / config.headCount));
}

/** What a full-sequence forward pass needs to point: [batch, length, ·] masks built from the token layout. */
export interface PointerInputs {
  /** [batch, length, images]: one-hot of the latest image complete at each position (zeros before any). */
  queryImage: tf.Tensor3D;
  /** [batch, length, images]: one-hot of the image each position's token belongs to (zeros for text). */
  keyImage: tf.Tensor3D;
  /** [batch, length, G]: one-hot of an image token's column in its image's grid (zeros for text). */
  keyColumn: tf.Tensor3D;
  /** [batch, length, G]: one-hot of an image token's row. */
  keyRow: tf.Tensor3D;
  /**
   * [batch, length, images]: one-hot of the image the pointer looks at from each position (zeros
   * before any is complete): queryImage itself with pointerImage 'latest', else the first image.
   */
  pointerImage: tf.Tensor3D;
  /** [batch·length, 1]: 1 where some image is complete before the position. */
  hasImage: tf.Tensor2D;
  /** [batch·G²]: flat row·length+column index of each row's last image's tokens (0 where a row has none). */
  lastImageTokens: tf.Tensor1D;
  /** [batch·G²]: like lastImageTokens, of each row's pointed-at image (lastImageTokens itself with pointerImage 'latest'). */
  pointerImageTokens: tf.Tensor1D;
  /** [batch]: 1 where the row has an image. */
  rowHasImage: tf.Tensor1D;
  /** [batch·images·G²]: flat row·length+column index of every image's tokens (0 for a row's missing images). */
  imageTokens: tf.Tensor1D;
  /** Inhibition of return (config.vision.inhibitionOfReturn) only: see ReturnInhibition. */
  inhibition?: ReturnInhibition;
}

/**
 * The cells the pointer leaves out, for inhibition of return: `excluded` [batch, length, G²] is 1 at
 * a position for each cell a complete `[c,r]` at or before it named (and the cells within
 * vision.inhibitionRadius of it), and, where the position's token
 * is the comma of `[c,` (the row digit comes next), for every cell outside column c: the pointer
 * names a cell, so the row is read from the written column's cells (else a column and a row of two
 * different cells not yet named could name one that was). `cellKeys` [batch, G², length] is 1 where
 * a key is the pointed-at (first) image's token of that cell.
 */
export interface ReturnInhibition {
  excluded: tf.Tensor3D;
  cellKeys: tf.Tensor3D;
  /** [batch, G²]: the cells named by each row's end (what a generation's cache carries on). */
  named: tf.Tensor2D;
}

/** Token ids of a call's cell syntax `[c,r]`: the brackets, the comma and the digits 0–9. */
export interface PointerCallIds {
  open: number;
  comma: number;
  close: number;
  digits: readonly number[];
}

/**
 * How much a named cell's pointer score drops: its weight underflows to 0 beside any cell not
 * named, yet it stays far above the −1e9 of keys outside the image, so once every cell is named
 * the pointer spreads over them as if none were.
 */
const RETURN_PENALTY = 1e4;

/**
 * The cell (row·G + column) a call names when `tokens` end with `[c,r]` (c and r digits < G),
 * else -1. `at` is the index of the last token to look at (default the last).
 */
export function namedCell(tokens: ArrayLike<number>, ids: PointerCallIds, side: number, at = tokens.length - 1, first = 0): number {
  if (at - 4 < first) return -1;
  if (tokens[at] !== ids.close || tokens[at - 2] !== ids.comma || tokens[at - 4] !== ids.open) return -1;
  const column = ids.digits.indexOf(tokens[at - 3] ?? -1);
  const row = ids.digits.indexOf(tokens[at - 1] ?? -1);
  return column >= 0 && column < side && row >= 0 && row < side ? row * side + column : -1;
}

/** The column c when `tokens` end with `[c,` (c a digit < G: the row digit comes next), else -1. */
export function openColumn(tokens: ArrayLike<number>, ids: PointerCallIds, side: number, at = tokens.length - 1, first = 0): number {
  if (at - 2 < first || tokens[at] !== ids.comma || tokens[at - 2] !== ids.open) return -1;
  const column = ids.digits.indexOf(tokens[at - 1] ?? -1);
  return column >= 0 && column < side ? column : -1;
}

/**
 * Marks `cell` and the cells within `radius` of it in rows and columns (row-major cells of a side ×
 * side grid) in `target` from `offset`: what a call naming `cell` leaves out (vision.inhibitionRadius).
 */
function markNamed(target: Float32Array, offset: number, side: number, cell: number, radius: number): void {
  const column = cell % side;
  const row = Math.floor(cell / side);
  for (let r = Math.max(0, row - radius); r <= Math.min(side - 1, row + radius); r++) {
    for (let c = Math.max(0, column - radius); c <= Math.min(side - 1, column + radius); c++) target[offset + r * side + c] = 1;
  }
}

/** Marks every cell outside `column` (row-major cells of a side × side grid) in `target` from `offset`. */
function excludeOtherColumns(target: Float32Array, offset: number, side: number, column: number): void {
  for (let cell = 0; cell < side * side; cell++) if (cell % side !== column) target[offset + cell] = 1;
}

/** Disposes every tensor of the pointer inputs (once each: with pointerImage 'latest' two fields are the same tensors). */
export function disposePointerInputs(inputs: PointerInputs): void {
  const own = [inputs.queryImage, inputs.keyImage, inputs.keyColumn, inputs.keyRow, inputs.hasImage, inputs.lastImageTokens, inputs.rowHasImage, inputs.imageTokens];
  if (inputs.inhibition) own.push(inputs.inhibition.excluded, inputs.inhibition.cellKeys, inputs.inhibition.named);
  tf.dispose([...own, ...[inputs.pointerImage, inputs.pointerImageTokens].filter((tensor) => !own.includes(tensor))]);
}

/**
 * The pointer's masks from a batch's token ids ([batch·length], padding already applied): image
 * tokens are runs of `imagePadId` of G² tokens each, in row-major order.
 */
export function buildPointerInputs(config: ModelConfig, tokens: Int32Array, batch: number, length: number, imagePadId: number, callIds?: PointerCallIds): PointerInputs {
  const side = pointerGridSide(config);
  const perImage = side * side;
  let maxImages = 1;
  const imageOf = new Int32Array(batch * length).fill(-1);
  const indexInImage = new Int32Array(batch * length);
  const lastStart = new Int32Array(batch).fill(-1);
  for (let row = 0; row < batch; row++) {
    let seen = 0;
    for (let column = 0; column < length; column++) {
      const at = row * length + column;
      if (tokens[at] !== imagePadId) continue;
      imageOf[at] = Math.floor(seen / perImage);
      indexInImage[at] = seen % perImage;
      if (seen % perImage === 0) lastStart[row] = column;
      seen++;
    }
    maxImages = Math.max(maxImages, Math.ceil(seen / perImage));
  }
  const queryImage = new Float32Array(batch * length * maxImages);
  const keyImage = new Float32Array(batch * length * maxImages);
  const keyColumn = new Float32Array(batch * length * side);
  const keyRow = new Float32Array(batch * length * side);
  const hasImage = new Float32Array(batch * length);
  const lastImageTokens = new Int32Array(batch * perImage);
  const rowHasImage = new Float32Array(batch);
  const imageTokens = new Int32Array(batch * maxImages * perImage);
  const firstComplete = new Int32Array(batch).fill(-1);
  for (let row = 0; row < batch; row++) {
    let latest = -1;
    for (let column = 0; column < length; column++) {
      const at = row * length + column;
      const image = imageOf[at] ?? -1;
      if (image >= 0) {
        keyImage[at * maxImages + image] = 1;
        const index = indexInImage[at] ?? 0;
        imageTokens[(row * maxImages + image) * perImage + index] = at;
        keyColumn[at * side + (index % side)] = 1;
        keyRow[at * side + Math.floor(index / side)] = 1;
        // An image counts for queries from its last token on: every key it has is then in the past.
        if (index === perImage - 1) latest = image;
        if (index === perImage - 1 && image === 0) firstComplete[row] = column;
      }
      if (latest >= 0) {
        queryImage[at * maxImages + latest] = 1;
        hasImage[at] = 1;
      }
    }
    const start = lastStart[row] ?? -1;
    if (start >= 0) {
      rowHasImage[row] = 1;
      for (let index = 0; index < perImage; index++) lastImageTokens[row * perImage + index] = row * length + start + index;
    }
  }
  const tensors = {
    queryImage: tf.tensor3d(queryImage, [batch, length, maxImages]),
    keyImage: tf.tensor3d(keyImage, [batch, length, maxImages]),
    keyColumn: tf.tensor3d(keyColumn, [batch, length, side]),
    keyRow: tf.tensor3d(keyRow, [batch, length, side]),
    hasImage: tf.tensor2d(hasImage, [batch * length, 1]),
    lastImageTokens: tf.tensor1d(lastImageTokens, 'int32'),
    rowHasImage: tf.tensor1d(rowHasImage),
    imageTokens: tf.tensor1d(imageTokens, 'int32'),
  };
  if (config.vision.pointerImage === 'latest') return { ...tensors, pointerImage: tensors.queryImage, pointerImageTokens: tensors.lastImageTokens };
  // The first image counts from its last token on, as the latest does: every key it has is then in the past.
  const pointerImage = new Float32Array(batch * length * maxImages);
  const firstImageTokens = new Int32Array(batch * perImage);
  for (let row = 0; row < batch; row++) {
    firstImageTokens.set(imageTokens.subarray(row * maxImages * perImage, (row * maxImages + 1) * perImage), row * perImage);
    const complete = firstComplete[row] ?? -1;
    if (complete >= 0) for (let column = complete; column < length; column++) pointerImage[(row * length + column) * maxImages] = 1;
  }
  const first = { ...tensors, pointerImage: tf.tensor3d(pointerImage, [batch, length, maxImages]), pointerImageTokens: tf.tensor1d(firstImageTokens, 'int32') };
  if (!config.vision.inhibitionOfReturn) return first;
  if (!callIds) throw new Error('buildPointerInputs: inhibition of return needs the token ids of a call\'s [c,r] (callIds)');
  return { ...first, inhibition: returnInhibition(tokens, batch, length, side, config.vision.inhibitionRadius ?? 0, callIds, firstImageTokens, rowHasImage) };
}

/** The cells named at or before each position, and the first image's keys of each cell (see ReturnInhibition). */
function returnInhibition(tokens: Int32Array, batch: number, length: number, side: number, radius: number, ids: PointerCallIds, firstImageTokens: Int32Array, rowHasImage: Float32Array): ReturnInhibition {
  const cells = side * side;
  const excluded = new Float32Array(batch * length * cells);
  const cellKeys = new Float32Array(batch * cells * length);
  const namedByEnd = new Float32Array(batch * cells);
  for (let row = 0; row < batch; row++) {
    const start = row * length;
    const named = namedByEnd.subarray(row * cells, (row + 1) * cells);
    for (let column = 0; column < length; column++) {
      const at = start + column;
      const cell = namedCell(tokens, ids, side, at, start);
      if (cell >= 0) markNamed(named, 0, side, cell, radius);
      excluded.set(named, at * cells);
      const open = openColumn(tokens, ids, side, at, start);
      if (open >= 0) excludeOtherColumns(excluded, at * cells, side, open);
    }
    if (rowHasImage[row] !== 1) continue;
    for (let cell = 0; cell < cells; cell++) {
      const key = (firstImageTokens[row * cells + cell] ?? start) - start;
      cellKeys[(row * cells + cell) * length + key] = 1;
    }
  }
  return { excluded: tf.tensor3d(excluded, [batch, length, cells]), cellKeys: tf.tensor3d(cellKeys, [batch, cells, length]), named: tf.tensor2d(namedByEnd, [batch, cells]) };
}

/** The keys a generation step points with: each row's pointed-at image's G² pointer keys (config.vision.pointerImage). */
// A type, not an interface: tf.tidy returns it inside a TensorContainer.
export type PointerCache = {
  /** [rows, G², pointerDimension]. */
  keys: tf.Tensor3D;
  /** [rows]: 1 where the row's prompt has an image. */
  valid: tf.Tensor1D;
  /** The readout's part of the last image ([rows, G², d] tokens for 'pointer', [rows, 1, d] pooled for 'max' and 'conv'; config.vision.readout). */
  values?: tf.Tensor3D;
  /** [rows, G²]: 1 for each cell an earlier call named (config.vision.inhibitionOfReturn). */
  visited?: tf.Tensor2D;
  /**
   * [rows, G²]: what one decoding step leaves out when it differs from `visited` (after `[c,`, the
   * cells outside column c too); set for that step only (combinePointerCaches does not carry it).
   */
  excluded?: tf.Tensor2D;
};

/** One cache from several, field by field (a prefill stacks its slices' caches); the first says which fields there are. */
export function combinePointerCaches(caches: readonly PointerCache[], combine: <T extends tf.Tensor>(parts: T[]) => T): PointerCache {
  const values = caches[0]?.values ? caches.map((cache) => cache.values!) : undefined;
  const visited = caches[0]?.visited ? caches.map((cache) => cache.visited!) : undefined;
  return {
    keys: combine(caches.map((cache) => cache.keys)),
    valid: combine(caches.map((cache) => cache.valid)),
    ...(values ? { values: combine(values) } : {}),
    ...(visited ? { visited: combine(visited) } : {}),
  };
}

/**
 * `cells` [rows, G²] with each row's marks added: `mark` writes them into the row's G² floats (from
 * `offset`) for a row whose value is ≥ 0. `cells` itself when no row has one.
 */
function withMarks(cells: tf.Tensor2D, values: readonly number[], mark: (target: Float32Array, offset: number, value: number) => void): tf.Tensor2D {
  if (values.every((value) => value < 0)) return cells;
  const count = cells.shape[1];
  const marks = new Float32Array(values.length * count);
  values.forEach((value, row) => {
    if (value >= 0) mark(marks, row * count, value);
  });
  return tf.maximum(cells, tf.tensor2d(marks, [values.length, count]));
}

/**
 * The visited cells after a decoding step fed each row one token: `cells[row]` is the cell a call
 * that token completed named (namedCell), -1 for none, marked with the cells within `radius` of it
 * (vision.inhibitionRadius). `visited` itself when no call completed.
 */
export function markVisited(visited: tf.Tensor2D, cells: readonly number[], radius = 0): tf.Tensor2D {
  const side = Math.round(Math.sqrt(visited.shape[1]));
  return withMarks(visited, cells, (target, offset, cell) => markNamed(target, offset, side, cell, radius));
}

/**
 * What a decoding step leaves out: the visited cells and, for rows whose fed token is the comma of
 * `[c,` (`columns[row]` = c, else -1), every cell outside column c. `visited` itself when no row has one.
 */
export function excludedCells(visited: tf.Tensor2D, columns: readonly number[]): tf.Tensor2D {
  const side = Math.round(Math.sqrt(visited.shape[1]));
  return withMarks(visited, columns, (target, offset, column) => excludeOtherColumns(target, offset, side, column));
}

/** Applies `map` to every tensor of a pointer cache (a generation step selects and clones them). */
export function mapPointerCache(cache: PointerCache, map: <T extends tf.Tensor>(tensor: T) => T): PointerCache {
  return combinePointerCaches([cache], ([tensor]) => map(tensor!));
}

/** Disposes every tensor of a pointer cache. */
export function disposePointerCache(cache: PointerCache): void {
  tf.dispose([cache.keys, cache.valid, ...[cache.values, cache.visited, cache.excluded].filter((tensor) => tensor !== undefined)]);
}

/** What the pointer adds to the LM head's logits, and with the readout to the state the head reads. */
export interface PointerTerms {
  /** [rows, V]: the digit logits' pointer terms (zeros off the digits). */
  digits: tf.Tensor2D;
  /** [rows, d]: the readout of where the pointer looks (config.vision.readout). */
  readout?: tf.Tensor2D;
}

/** Probabilities below this are read as it: a log-probability stays finite (≥ −13.8). */
const FLOOR = 1e-6;

/** [rows, G] log-marginals, centred over the G digits (pointing moves digits against each other, not against other tokens). */
function centredLog(probabilities: tf.Tensor2D): tf.Tensor2D {
  const log = tf.log(tf.add(probabilities, FLOOR));
  return tf.sub(log, tf.mean(log, -1, true)) as tf.Tensor2D;
}

/** [rows, V]: the digit logits' pointer terms, placed at the digit token ids (zeros elsewhere). */
function placeOnDigits(config: ModelConfig, normed: tf.Tensor2D, weight: WeightLookup, logColumn: tf.Tensor2D, logRow: tf.Tensor2D, valid: tf.Tensor2D, digitIds: readonly number[]): tf.Tensor2D {
  const side = pointerGridSide(config);
  const gates = tf.add(tf.matMul(normed, weight('pointer.gate.weight')), weight('pointer.gate.bias'));
  const [columnGate, rowGate] = tf.split(gates, 2, 1) as [tf.Tensor2D, tf.Tensor2D];
  const digits = tf.mul(tf.add(tf.mul(columnGate, logColumn), tf.mul(rowGate, logRow)), valid) as tf.Tensor2D;
  const placement = tf.oneHot(tf.tensor1d(digitIds.slice(0, side), 'int32'), config.vocabularySize).toFloat();
  return tf.matMul(digits, placement);
}

/** What a full sequence's pointer reads: the key states ([batch·length, d]) and, for the readout, its per-token values at the image slots ([batch·length, readoutValueWidth]). */
export interface PointerStates {
  keys: tf.Tensor2D;
  values?: tf.Tensor2D;
}

/** Pointer terms for every position of a full sequence (digits [batch·length, V], readout [batch·length, d]). */
export function pointerTerms(config: ModelConfig, normed: tf.Tensor2D, states: PointerStates, weight: WeightLookup, inputs: PointerInputs, batch: number, length: number, digitIds: readonly number[]): PointerTerms {
  const keyStates = states.keys;
  const h = pointerDimension(config);
  const side = pointerGridSide(config);
  const query = tf.reshape(tf.matMul(normed, weight('pointer.query.weight')), [batch, length, h]);
  const key = tf.reshape(tf.matMul(keyStates, weight('pointer.key.weight')), [batch, length, h]);
  const scores = tf.div(tf.matMul(query, key, false, true), Math.sqrt(h));
  const mask = tf.matMul(inputs.pointerImage, inputs.keyImage, false, true);
  // exp(s − max) over the pointed-at image's keys; the max cancels in the marginals below (a row
  // with no image has zero weights and a total of 1), so its gradient is left out (expShiftedByMax).
  let masked = tf.add(scores, tf.mul(tf.sub(mask, 1), 1e9));
  if (inputs.inhibition) masked = tf.sub(masked, tf.mul(tf.matMul(inputs.inhibition.excluded, inputs.inhibition.cellKeys), RETURN_PENALTY));
  const weights = tf.mul(expShiftedByMax(masked, -1), mask);
  const total = tf.add(tf.sum(weights, -1, true), tf.sub(1, tf.reshape(inputs.hasImage, [batch, length, 1])));
  const column = tf.reshape(tf.div(tf.matMul(weights, inputs.keyColumn), total), [batch * length, side]) as tf.Tensor2D;
  const row = tf.reshape(tf.div(tf.matMul(weights, inputs.keyRow), total), [batch * length, side]) as tf.Tensor2D;
  const digits = placeOnDigits(config, normed, weight, centredLog(column), centredLog(row), inputs.hasImage, digitIds);
  if (!config.vision.readout || !states.values) return { digits };
  // 'max' and 'conv' read the latest image (queryImage), whichever image the pointer looks at.
  if (config.vision.readout !== 'pointer') return { digits, readout: maxReadoutTerms(config, weight, states.values, inputs, batch, length) };
  // 'pointer' reads where the pointer looks: validateModelConfig allows it with pointerImage 'latest' only.
  const values = tf.reshape(states.values, [batch, length, config.modelDimension]);
  const attended = tf.reshape(tf.div(tf.matMul(weights, values), total), [batch * length, config.modelDimension]) as tf.Tensor2D;
  return { digits, readout: readoutOf(weight, attended, inputs.hasImage) };
}

/** Each row's pointed-at image's pointer keys and last image's readout values, from a prefill's states ([batch·length, d]). */
export function pointerCacheOf(config: ModelConfig, states: PointerStates, weight: WeightLookup, inputs: PointerInputs, batch: number): PointerCache {
  const tokens = pointerGridSide(config) ** 2;
  const keys = tf.matMul(tf.gather(states.keys, inputs.pointerImageTokens), weight('pointer.key.weight'));
  const cache: PointerCache = { keys: tf.reshape(keys, [batch, tokens, pointerDimension(config)]) as tf.Tensor3D, valid: tf.clone(inputs.rowHasImage) };
  // The cells named by each row's end carry on into its decoding steps.
  if (inputs.inhibition) cache.visited = tf.clone(inputs.inhibition.named);
  if (!config.vision.readout || !states.values) return cache;
  if (config.vision.readout !== 'pointer') return { ...cache, values: maxReadoutCache(config, weight, states.values, inputs, batch) };
  return { ...cache, values: tf.reshape(tf.gather(states.values, inputs.lastImageTokens), [batch, tokens, config.modelDimension]) as tf.Tensor3D };
}

/** Pointer terms for one new position per row (digits [rows, V], readout [rows, d]), against the cached keys. */
export function pointerStepTerms(config: ModelConfig, normed: tf.Tensor2D, weight: WeightLookup, cache: PointerCache, digitIds: readonly number[]): PointerTerms {
  const h = pointerDimension(config);
  const side = pointerGridSide(config);
  const rows = normed.shape[0];
  const query = tf.reshape(tf.matMul(normed, weight('pointer.query.weight')), [rows, 1, h]);
  let scores = tf.reshape(tf.div(tf.matMul(query, cache.keys, false, true), Math.sqrt(h)), [rows, side * side]);
  const excluded = cache.excluded ?? cache.visited;
  if (excluded) scores = tf.sub(scores, tf.mul(excluded, RETURN_PENALTY));
  const probabilities = tf.reshape(tf.softmax(scores), [rows, side, side]);
  // Token k of the grid is row ⌊k/G⌋, column k mod G: sum over rows for the column marginal.
  const column = tf.sum(probabilities, 1) as tf.Tensor2D;
  const row = tf.sum(probabilities, 2) as tf.Tensor2D;
  const valid = tf.reshape(cache.valid, [rows, 1]) as tf.Tensor2D;
  const digits = placeOnDigits(config, normed, weight, centredLog(column), centredLog(row), valid, digitIds);
  if (!config.vision.readout || !cache.values) return { digits };
  if (config.vision.readout !== 'pointer') return { digits, readout: maxReadoutStep(weight, cache.values, valid) };
  const attended = tf.reshape(tf.matMul(tf.reshape(probabilities, [rows, 1, side * side]), cache.values), [rows, config.modelDimension]) as tf.Tensor2D;
  return { digits, readout: readoutOf(weight, attended, valid) };
}
