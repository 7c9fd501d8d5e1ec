import * as tf from '@tensorflow/tfjs-core';
import { smoothMaximum, stableLogSumExp } from '@saccade/tensor';
import type { PointerInputs } from './grid-pointer';
import { patchGrid, type ModelConfig } from './model-config';
import { gelu, linear, type WeightLookup } from './transformer-layers';

/**
 * The image readout (config.vision.readout): a summary of the latest image added to the state the LM
 * head reads, so an answer reads what a crop shows instead of finding it among the crop's tokens
 * through the decoder's attention, which has to learn where and what at once (docs/models.md).
 * 'pointer' weights the image tokens by where the grid pointer looks from the position; 'max'
 * takes a smooth maximum of projected image tokens per feature, a detector that fires wherever the
 * shape is; 'conv' convolves the pixel stem's pooled blocks across patch borders and takes the
 * smooth maximum of every feature over all blocks: a shape moved by a block gives the same summary,
 * where a token's projection changes with where in its patch the shape falls.
 */

/** β of the readouts' smooth maximum (1/β)·log mean exp(β·v) over an image's tokens (or blocks). */
const READOUT_SHARPNESS = 10;

/** Side of the 'conv' readout's kernel, in stem blocks: 5 blocks of 4 px span the 21-px shapes a crop shows. */
export const READOUT_CONV_KERNEL = 5;

/** Features of the 'conv' readout's convolution. */
export const READOUT_CONV_CHANNELS = 32;

/** Width of the readout's per-token values: the 'conv' readout's features, or the model dimension. */
export function readoutValueWidth(config: ModelConfig): number {
  return config.vision.readout === 'conv' ? READOUT_CONV_CHANNELS : config.modelDimension;
}

/** The readouts' smooth maximum over `axis`: (1/β)·log mean exp(β·v), β = READOUT_SHARPNESS. */
function smoothMax(values: tf.Tensor, axis: number): tf.Tensor {
  return smoothMaximum(values, axis, READOUT_SHARPNESS);
}

/**
 * The 'conv' readout's per-token values: the stem's pooled features of each patch ([images·G²,
 * b²·C], blocks row-major, as the patch projection reads them) laid out as one block map per image,
 * a ReLU convolution over it ('same' padding), and each patch's smooth maximum of its blocks'
 * features: [images·G², READOUT_CONV_CHANNELS]. A smooth maximum of these over an image's tokens is
 * the one over every block of the image (log-mean-exp composes over equal groups).
 */
export function convReadoutValues(config: ModelConfig, weight: WeightLookup, features: tf.Tensor2D): tf.Tensor2D {
  const stem = config.vision.stem;
  if (!stem) throw new Error("The 'conv' readout reads the pixel stem's blocks: the config has no vision.stem.");
  const grid = patchGrid(config);
  const blocks = config.patchSize / stem.pool;
  const images = features.shape[0] / (grid * grid);
  const side = grid * blocks;
  const map = tf.reshape(tf.transpose(tf.reshape(features, [images, grid, grid, blocks, blocks, stem.channels]), [0, 1, 3, 2, 4, 5]), [images, side, side, stem.channels]) as tf.Tensor4D;
  const convolved = tf.relu(tf.add(tf.conv2d(map, weight('readout.conv.weight') as tf.Tensor4D, 1, 'same'), weight('readout.conv.bias')));
  const perPatch = tf.reshape(tf.transpose(tf.reshape(convolved, [images, grid, blocks, grid, blocks, READOUT_CONV_CHANNELS]), [0, 1, 3, 2, 4, 5]), [images * grid * grid, blocks * blocks, READOUT_CONV_CHANNELS]);
  return smoothMax(perPatch, 1) as tf.Tensor2D;
}

/** The readout's MLP on an image summary [rows, d], zero where no image came before (valid [rows, 1]). */
export function readoutOf(weight: WeightLookup, summary: tf.Tensor2D, valid: tf.Tensor2D): tf.Tensor2D {
  const hidden = gelu(linear(summary, weight('readout.up.weight'), weight('readout.up.bias')));
  return tf.mul(tf.matMul(hidden, weight('readout.down.weight')), valid) as tf.Tensor2D;
}

/**
 * [images, d]: each image's summary from its tokens' values ([images·G², width] in image order):
 * 'max' projects each token and takes the smooth maximum per feature; 'conv' takes the smooth
 * maximum of its values per feature, then projects.
 */
export function poolImages(config: ModelConfig, weight: WeightLookup, tokens: tf.Tensor2D): tf.Tensor2D {
  return finishPooled(config, weight, imageMaxima(config, weight, tokens));
}

/**
 * [images, width]: each image's smooth maximum before the summary's last step: of the 'conv'
 * values (projected after), or of the 'max' readout's projected tokens (the summary itself).
 */
function imageMaxima(config: ModelConfig, weight: WeightLookup, tokens: tf.Tensor2D): tf.Tensor2D {
  const perImage = (patchGrid(config) / config.vision.spatialMerge) ** 2;
  if (config.vision.readout === 'conv') return smoothMax(tf.reshape(tokens, [-1, perImage, tokens.shape[1]]), 1) as tf.Tensor2D;
  const projected = tf.reshape(linear(tokens, weight('readout.value.weight'), weight('readout.value.bias')), [-1, perImage, config.modelDimension]);
  return smoothMax(projected, 1) as tf.Tensor2D;
}

/** The summary from smooth maxima (imageMaxima's, or their combination over images): 'conv' projects them. */
function finishPooled(config: ModelConfig, weight: WeightLookup, maxima: tf.Tensor2D): tf.Tensor2D {
  return config.vision.readout === 'conv' ? linear(maxima, weight('readout.value.weight'), weight('readout.value.bias')) : maxima;
}

/**
 * readoutImages 'all': [batch·length, width], at each position one smooth maximum over every image
 * complete by then (`seen` [batch, length, images], 1 for each), from each image's own (`maxima`
 * [batch, images, width]): with images of equal token counts, log-mean-exp composes, so this is the
 * smooth maximum over all their tokens. A position with no image gets a finite value (its readout is
 * zeroed by `hasImage`).
 */
function combineSeen(maxima: tf.Tensor3D, seen: tf.Tensor3D): tf.Tensor2D {
  const [batch, images, width] = maxima.shape;
  const length = seen.shape[1];
  // Unseen images drop out of the log-sum-exp: exp(−10⁵) is exactly 0 beside any seen one.
  const scaled = tf.sub(tf.reshape(tf.mul(maxima, READOUT_SHARPNESS), [batch, 1, images, width]), tf.mul(tf.sub(1, tf.reshape(seen, [batch, length, images, 1])), 1e5));
  const count = tf.maximum(tf.sum(seen, -1), 1);
  const total = tf.sub(stableLogSumExp(scaled, 2), tf.expandDims(tf.log(count), -1));
  return tf.reshape(tf.div(total, READOUT_SHARPNESS), [batch * length, width]) as tf.Tensor2D;
}

/** [batch, length, images]: 1 for every image complete at or before each position (images come in order). */
function seenImages(queryImage: tf.Tensor3D): tf.Tensor3D {
  const images = queryImage.shape[2];
  // seen[i] = Σ_{i' ≥ i} latest[i']: the latest complete image and every one before it.
  const upTo = tf.linalg.bandPart(tf.ones([images, images]), -1, 0);
  return tf.reshape(tf.matMul(tf.reshape(queryImage, [-1, images]), upTo), queryImage.shape) as tf.Tensor3D;
}

/**
 * readoutImages 'all': [batch·length′, d], the summary over every image complete at each of the
 * positions `queryImage` ([batch, length′, images], one-hot of each position's latest) describes.
 */
function summaryOverSeen(config: ModelConfig, weight: WeightLookup, tokens: tf.Tensor2D, queryImage: tf.Tensor3D, batch: number): tf.Tensor2D {
  const maxima = imageMaxima(config, weight, tokens);
  const combined = combineSeen(tf.reshape(maxima, [batch, queryImage.shape[2], maxima.shape[1]]) as tf.Tensor3D, seenImages(queryImage));
  return finishPooled(config, weight, combined);
}

/** The 'max' (or 'conv') readout at every position of a full sequence ([batch·length, d]) from the image tokens at their slots ([batch·length, d]). */
export function maxReadoutTerms(config: ModelConfig, weight: WeightLookup, values: tf.Tensor2D, inputs: PointerInputs, batch: number, length: number): tf.Tensor2D {
  const images = inputs.queryImage.shape[2];
  const tokens = tf.gather(values, inputs.imageTokens);
  if (config.vision.readoutImages === 'all') return readoutOf(weight, summaryOverSeen(config, weight, tokens, inputs.queryImage, batch), inputs.hasImage);
  const pooled = tf.reshape(poolImages(config, weight, tokens), [batch, images, config.modelDimension]);
  // Each position reads its latest complete image's summary (none before the first: queryImage is zero there).
  const summary = tf.reshape(tf.matMul(inputs.queryImage, pooled), [batch * length, config.modelDimension]) as tf.Tensor2D;
  return readoutOf(weight, summary, inputs.hasImage);
}

/**
 * What a generation caches for the 'max' (or 'conv') readout, [rows, 1, d]: each row's last image's
 * summary, or with readoutImages 'all' the one over all its images (a prompt's images are all
 * complete by its last position, which a left-padded prefill has in its last column).
 */
export function maxReadoutCache(config: ModelConfig, weight: WeightLookup, values: tf.Tensor2D, inputs: PointerInputs, batch: number): tf.Tensor3D {
  if (config.vision.readoutImages === 'all') {
    const [, length, images] = inputs.queryImage.shape;
    const last = tf.slice(inputs.queryImage, [0, length - 1, 0], [batch, 1, images]) as tf.Tensor3D;
    return tf.reshape(summaryOverSeen(config, weight, tf.gather(values, inputs.imageTokens), last, batch), [batch, 1, config.modelDimension]) as tf.Tensor3D;
  }
  return tf.reshape(poolImages(config, weight, tf.gather(values, inputs.lastImageTokens)), [batch, 1, config.modelDimension]) as tf.Tensor3D;
}

/** The 'max' (or 'conv') readout of one new position per row ([rows, d]) from the cached summaries. */
export function maxReadoutStep(weight: WeightLookup, cached: tf.Tensor3D, valid: tf.Tensor2D): tf.Tensor2D {
  return readoutOf(weight, tf.reshape(cached, [cached.shape[0], cached.shape[2]]) as tf.Tensor2D, valid);
}
