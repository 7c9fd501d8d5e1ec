import * as tf from '@tensorflow/tfjs-core';
import type { PointerInputs } from './grid-pointer';
import { patchGrid, type ModelConfig } from './model-config';
import { gelu, linear, type WeightLookup } from './transformer-layers';

/**
 * The image readout (config.vision.readout): a summary of the latest image added to the state the LM
 * head reads, so an answer reads what a crop shows instead of finding it among the crop's tokens
 * through the decoder's attention, which has to learn where and what at once (docs/models.md).
 * 'pointer' weights the image tokens by where the grid pointer looks from the position; 'max'
 * takes a smooth maximum of projected image tokens per feature, a detector that fires wherever the
 * shape is.
 */

/** β of the 'max' readout's smooth maximum (1/β)·log mean exp(β·v) over an image's G² tokens. */
const READOUT_SHARPNESS = 10;

/** The readout's MLP on an image summary [rows, d], zero where no image came before (valid [rows, 1]). */
export function readoutOf(weight: WeightLookup, summary: tf.Tensor2D, valid: tf.Tensor2D): tf.Tensor2D {
  const hidden = gelu(linear(summary, weight('readout.up.weight'), weight('readout.up.bias')));
  return tf.mul(tf.matMul(hidden, weight('readout.down.weight')), valid) as tf.Tensor2D;
}

/** [images, d]: each image's smooth maximum of its projected tokens ([images·G², d] in image order). */
function poolImages(config: ModelConfig, weight: WeightLookup, tokens: tf.Tensor2D): tf.Tensor2D {
  const perImage = (patchGrid(config) / config.vision.spatialMerge) ** 2;
  const projected = tf.reshape(linear(tokens, weight('readout.value.weight'), weight('readout.value.bias')), [-1, perImage, config.modelDimension]);
  return tf.div(tf.sub(tf.logSumExp(tf.mul(projected, READOUT_SHARPNESS), 1), Math.log(perImage)), READOUT_SHARPNESS) as tf.Tensor2D;
}

/** The 'max' readout at every position of a full sequence ([batch·length, d]) from the image tokens at their slots ([batch·length, d]). */
export function maxReadoutTerms(config: ModelConfig, weight: WeightLookup, values: tf.Tensor2D, inputs: PointerInputs, batch: number, length: number): tf.Tensor2D {
  const images = inputs.queryImage.shape[2];
  const pooled = tf.reshape(poolImages(config, weight, tf.gather(values, inputs.imageTokens)), [batch, images, config.modelDimension]);
  // Each position reads its latest complete image's summary (none before the first: queryImage is zero there).
  const summary = tf.reshape(tf.matMul(inputs.queryImage, pooled), [batch * length, config.modelDimension]) as tf.Tensor2D;
  return readoutOf(weight, summary, inputs.hasImage);
}

/** What a generation caches for the 'max' readout: each row's last image's summary, [rows, 1, d]. */
export function maxReadoutCache(config: ModelConfig, weight: WeightLookup, values: tf.Tensor2D, inputs: PointerInputs, batch: number): tf.Tensor3D {
  return tf.reshape(poolImages(config, weight, tf.gather(values, inputs.lastImageTokens)), [batch, 1, config.modelDimension]) as tf.Tensor3D;
}

/** The 'max' readout of one new position per row ([rows, d]) from the cached summaries. */
export function maxReadoutStep(weight: WeightLookup, cached: tf.Tensor3D, valid: tf.Tensor2D): tf.Tensor2D {
  return readoutOf(weight, tf.reshape(cached, [cached.shape[0], cached.shape[2]]) as tf.Tensor2D, valid);
}
