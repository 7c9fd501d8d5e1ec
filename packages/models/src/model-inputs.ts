import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@saccade/spec';
import { imageTokenCount, patchCount, patchDimension, type ModelConfig } from './model-config';
import { buildPointerInputs, disposePointerInputs, type PointerCallIds, type PointerInputs } from './grid-pointer';
import { writePatches } from './image-patches';
import { timePhase } from './phase-timer';
import type { RgbImage } from './rgb-image';

/** One token sequence and the images for its `<image_pad>` runs, in order. */
export interface ModelSequence {
  tokens: readonly number[];
  images?: readonly RgbImage[];
}

/**
 * How prepareInputs pads a batch (right for training, left for generation), to what length, and
 * with which ids.
 */
export interface PrepareInputsOptions {
  /** Right (training: positions line up) or left (generation: every prompt ends at the last column). */
  padding?: 'right' | 'left';
  /** Pad every row to at least this many columns (default: the longest sequence's length). */
  length?: number;
  padId: number;
  imagePadId: number;
  /** Token ids of a call's `[c,r]`, for inhibition of return (config.vision.inhibitionOfReturn). */
  pointerCallIds?: PointerCallIds;
}

/** The tensors a forward pass reads. Owns them: call `dispose()`. */
export interface ModelInputs {
  batch: number;
  length: number;
  /** Real tokens per row. */
  lengths: number[];
  /** Left-padding per row (0 with right padding). */
  padding: number[];
  tokens: tf.Tensor2D;
  positions: tf.Tensor2D;
  /** Per position: 0 for text, k+1 to take image feature row k. */
  imageSlots: tf.Tensor1D;
  /** [image tokens in the batch, patch values], or undefined without images. */
  patches: tf.Tensor2D | undefined;
  /** Right padding: every row's positions are 0..length-1 (a slice, not a gather, of the table). */
  uniformPositions: boolean;
  /**
   * When every row has its image slots at the same columns (a batch built from one template):
   * the runs of those columns, so image features are placed with pads rather than a gather.
   */
  sharedImageRuns: { start: number; size: number }[] | undefined;
  /** [batch, length]: 0 for real keys, -1e9 for left padding; undefined with right padding. */
  keyBias: tf.Tensor2D | undefined;
  /** The grid pointer's masks (config.vision.pointer only). */
  pointer: PointerInputs | undefined;
  dispose(): void;
}

/**
 * The additive attention bias of a masked key: large enough that its weight is zero after softmax.
 */
export const MASKED = -1e9;

/**
 * Pads a batch of sequences into the tensors a forward pass reads (tokens, positions, image slots,
 * patches, key bias). Throws InvalidArgumentError for an empty batch or a sequence longer than
 * maxSequenceLength.
 */
export function prepareInputs(
  config: ModelConfig,
  sequences: readonly ModelSequence[],
  options: PrepareInputsOptions,
): ModelInputs {
  if (sequences.length === 0) {
    throw new InvalidArgumentError({ argument: 'sequences', expected: 'at least one sequence', value: sequences });
  }
  const padding = options.padding ?? 'right';
  const lengths = sequences.map((sequence) => sequence.tokens.length);
  const length = Math.max(...lengths, options.length ?? 0);
  if (length > config.maxSequenceLength) {
    throw new InvalidArgumentError({
      argument: 'sequences',
      expected: `sequences of at most maxSequenceLength (${config.maxSequenceLength}) tokens`,
      value: `a sequence of ${length} tokens`,
    });
  }
  const perImage = imageTokenCount(config);
  const imageCount = sequences.reduce((sum, sequence) => sum + (sequence.images?.length ?? 0), 0);
  const batch = sequences.length;
  const tokens = new Int32Array(batch * length).fill(options.padId);
  const positions = new Int32Array(batch * length);
  const slots = new Int32Array(batch * length);
  const keyBias = padding === 'left' ? new Float32Array(batch * length) : undefined;
  const patchesPerImage = patchCount(config);
  const patchValues = new Float32Array(imageCount * patchesPerImage * patchDimension(config));
  const pads: number[] = [];
  let slot = 0;
  let patchOffset = 0;
  sequences.forEach((sequence, row) => {
    const pad = padding === 'left' ? length - sequence.tokens.length : 0;
    pads.push(pad);
    const images = sequence.images ?? [];
    const slotStart = slot;
    for (let column = 0; column < length; column++) {
      const index = row * length + column;
      const position = column - pad;
      if (position < 0) {
        if (keyBias) keyBias[index] = MASKED;
        continue;
      }
      positions[index] = position;
      if (position >= sequence.tokens.length) continue;
      const token = sequence.tokens[position] ?? options.padId;
      tokens[index] = token;
      if (token === options.imagePadId) slots[index] = ++slot;
    }
    const used = slot - slotStart;
    if (used !== images.length * perImage) {
      throw new InvalidArgumentError({
        argument: `sequences[${row}]`,
        expected: `${images.length} image(s) × ${perImage} <image_pad> tokens = ${images.length * perImage}`,
        value: `${used} <image_pad> tokens`,
      });
    }
    if (images.length > 0) patchOffset = timePhase('pixels', () => images.reduce((offset, image) => writePatches(config, image, patchValues, offset), patchOffset));
  });
  const inputs: ModelInputs = {
    sharedImageRuns: imageCount > 0 ? sharedRuns(slots, batch, length) : undefined,
    batch,
    length,
    lengths,
    padding: pads,
    tokens: tf.tensor2d(tokens, [batch, length], 'int32'),
    positions: tf.tensor2d(positions, [batch, length], 'int32'),
    imageSlots: tf.tensor1d(slots, 'int32'),
    patches: imageCount > 0 ? timePhase('pixels', () => tf.tensor2d(patchValues, [imageCount * patchesPerImage, patchDimension(config)])) : undefined,
    uniformPositions: padding === 'right',
    keyBias: keyBias ? tf.tensor2d(keyBias, [batch, length]) : undefined,
    pointer: config.vision.pointer ? buildPointerInputs(config, tokens, batch, length, options.imagePadId, options.pointerCallIds) : undefined,
    dispose() {
      tf.dispose([inputs.tokens, inputs.positions, inputs.imageSlots]);
      if (inputs.pointer) disposePointerInputs(inputs.pointer);
      if (inputs.patches) inputs.patches.dispose();
      if (inputs.keyBias) inputs.keyBias.dispose();
    },
  };
  return inputs;
}

/** The runs of image-slot columns if they are the same in every row (see sharedImageRuns). */
function sharedRuns(slots: Int32Array, batch: number, length: number): { start: number; size: number }[] | undefined {
  const runs: { start: number; size: number }[] = [];
  for (let column = 0; column < length; column++) {
    const isSlot = (slots[column] ?? 0) > 0;
    for (let row = 1; row < batch; row++) {
      if ((slots[row * length + column] ?? 0) > 0 !== isSlot) return undefined;
    }
    if (!isSlot) continue;
    const last = runs[runs.length - 1];
    if (last && last.start + last.size === column) last.size++;
    else runs.push({ start: column, size: 1 });
  }
  return runs;
}
