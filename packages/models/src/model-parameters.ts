import { patchFeatureDimension, patchGrid, type GridLayersConfig, type ModelConfig } from './model-config';
import { pointerDimension } from './grid-pointer';
import { READOUT_CONV_CHANNELS, READOUT_CONV_KERNEL } from './image-readout';
import { createRandom, normalSample } from './seeded-random';

/** How a parameter starts: normal with a standard deviation, zeros or ones. */
export type ParameterInit = { kind: 'normal'; std: number } | { kind: 'zeros' } | { kind: 'ones' };

/** One weight of the model: its name, shape and initialisation, as parameterSpecs lists them. */
export interface ParameterSpec {
  name: string;
  shape: number[];
  init: ParameterInit;
}

const normal = (std: number): ParameterInit => ({ kind: 'normal', std });
const zeros: ParameterInit = { kind: 'zeros' };
const ones: ParameterInit = { kind: 'ones' };

function layerSpecs(prefix: string, config: ModelConfig, residualScale: number): ParameterSpec[] {
  const d = config.modelDimension;
  const hidden = d * config.mlpRatio;
  // 1/√fan-in: attention scores and MLP inputs start at unit scale, so attention is not uniform
  // at step one (GPT-2's 0.02 is tuned for d = 768 and leaves a small model on a long plateau
  // before it attends to the image cell that matters).
  const inputStd = 1 / Math.sqrt(d);
  return [
    { name: `${prefix}.norm1.gain`, shape: [d], init: ones },
    { name: `${prefix}.norm1.bias`, shape: [d], init: zeros },
    { name: `${prefix}.attention.qkv.weight`, shape: [d, 3 * d], init: normal(inputStd) },
    { name: `${prefix}.attention.qkv.bias`, shape: [3 * d], init: zeros },
    { name: `${prefix}.attention.output.weight`, shape: [d, d], init: normal(inputStd * residualScale) },
    { name: `${prefix}.attention.output.bias`, shape: [d], init: zeros },
    { name: `${prefix}.norm2.gain`, shape: [d], init: ones },
    { name: `${prefix}.norm2.bias`, shape: [d], init: zeros },
    { name: `${prefix}.mlp.up.weight`, shape: [d, hidden], init: normal(inputStd) },
    { name: `${prefix}.mlp.up.bias`, shape: [hidden], init: zeros },
    { name: `${prefix}.mlp.down.weight`, shape: [hidden, d], init: normal(residualScale / Math.sqrt(hidden)) },
    { name: `${prefix}.mlp.down.bias`, shape: [d], init: zeros },
  ];
}

/** The grid layers: a merge of each cell's patches, local layers, and a projection back. */
function gridSpecs(config: ModelConfig, grid: GridLayersConfig): ParameterSpec[] {
  const d = config.modelDimension;
  const merged = grid.cellPatches ** 2 * d;
  const residualScale = 1 / Math.sqrt(2 * grid.layers);
  const specs: ParameterSpec[] = [
    { name: 'grid.input.weight', shape: [merged, d], init: normal(1 / Math.sqrt(merged)) },
    { name: 'grid.input.bias', shape: [d], init: zeros },
  ];
  for (let layer = 0; layer < grid.layers; layer++) {
    // A cell and its four neighbours in, d hidden units, d out.
    specs.push(
      { name: `grid.${layer}.norm.gain`, shape: [d], init: ones },
      { name: `grid.${layer}.norm.bias`, shape: [d], init: zeros },
      { name: `grid.${layer}.up.weight`, shape: [5 * d, d], init: normal(1 / Math.sqrt(5 * d)) },
      { name: `grid.${layer}.up.bias`, shape: [d], init: zeros },
      { name: `grid.${layer}.down.weight`, shape: [d, d], init: normal(residualScale / Math.sqrt(d)) },
      { name: `grid.${layer}.down.bias`, shape: [d], init: zeros },
    );
  }
  specs.push(
    { name: 'grid.outputNorm.gain', shape: [d], init: ones },
    { name: 'grid.outputNorm.bias', shape: [d], init: zeros },
    { name: 'grid.output.weight', shape: [d, d], init: normal(1 / Math.sqrt(d)) },
    { name: 'grid.output.bias', shape: [d], init: zeros },
  );
  return specs;
}

/**
 * Every weight of the model, in the canonical order used for gradients, the optimizer state and
 * checkpoints. The patch projection is followed by a layer norm, so that image tokens start at the
 * same scale whatever the pixels; row and column embeddings start large enough (0.2) that cells are
 * told apart from the first step.
 */
export function parameterSpecs(config: ModelConfig): ParameterSpec[] {
  const d = config.modelDimension;
  const grid = patchGrid(config);
  const { vision } = config;
  const residualScale = 1 / Math.sqrt(2 * Math.max(1, config.decoderLayers));
  const features = patchFeatureDimension(config);
  const specs: ParameterSpec[] = [];
  if (vision.stem) {
    // A k × k stem reads k² pixels: each weight 1/k as large keeps a feature's spread the per-pixel stem's.
    const kernel = vision.stem.kernel ?? 1;
    specs.push({ name: 'image.stem.weight', shape: [kernel * kernel * 3, vision.stem.channels], init: normal(1 / kernel) }, { name: 'image.stem.bias', shape: [vision.stem.channels], init: zeros });
  }
  specs.push(
    { name: 'image.patch.weight', shape: [features, d], init: normal(1 / Math.sqrt(features)) },
    { name: 'image.patch.bias', shape: [d], init: zeros },
    { name: 'image.patchNorm.gain', shape: [d], init: ones },
    { name: 'image.patchNorm.bias', shape: [d], init: zeros },
    { name: 'image.row', shape: [grid, d], init: normal(0.2) },
    { name: 'image.column', shape: [grid, d], init: normal(0.2) },
  );
  for (let layer = 0; layer < config.encoderLayers; layer++) specs.push(...layerSpecs(`encoder.${layer}`, config, residualScale));
  specs.push({ name: 'image.outputNorm.gain', shape: [d], init: ones }, { name: 'image.outputNorm.bias', shape: [d], init: zeros });
  if (vision.grid) specs.push(...gridSpecs(config, vision.grid));
  if (vision.spatialMerge > 1) {
    const merged = vision.spatialMerge ** 2 * d;
    specs.push(
      { name: 'image.merger.up.weight', shape: [merged, d], init: normal(1 / Math.sqrt(merged)) },
      { name: 'image.merger.up.bias', shape: [d], init: zeros },
      { name: 'image.merger.down.weight', shape: [d, d], init: normal(1 / Math.sqrt(d)) },
      { name: 'image.merger.down.bias', shape: [d], init: zeros },
    );
  }
  specs.push(
    { name: 'token.embedding', shape: [config.vocabularySize, d], init: normal(0.02) },
    { name: 'position.embedding', shape: [config.maxSequenceLength, d], init: normal(0.02) },
  );
  for (let layer = 0; layer < config.decoderLayers; layer++) specs.push(...layerSpecs(`decoder.${layer}`, config, residualScale));
  specs.push(
    { name: 'decoder.norm.gain', shape: [d], init: ones },
    { name: 'decoder.norm.bias', shape: [d], init: zeros },
    { name: 'head.weight', shape: [d, config.vocabularySize], init: normal(0.02) },
    { name: 'head.bias', shape: [config.vocabularySize], init: zeros },
    { name: 'value.weight', shape: [d, 1], init: zeros },
    { name: 'value.bias', shape: [1], init: zeros },
  );
  if (vision.pointer) {
    const h = pointerDimension(config);
    specs.push(
      { name: 'pointer.query.weight', shape: [d, h], init: normal(1 / Math.sqrt(d)) },
      { name: 'pointer.key.weight', shape: [d, h], init: normal(1 / Math.sqrt(d)) },
      // Both marginals start fully on (gates of 1); the state learns which one a digit reads.
      { name: 'pointer.gate.weight', shape: [d, 2], init: zeros },
      { name: 'pointer.gate.bias', shape: [2], init: ones },
    );
  }
  if (vision.pointer && vision.readout) {
    if (vision.readout === 'max') {
      specs.push({ name: 'readout.value.weight', shape: [d, d], init: normal(1 / Math.sqrt(d)) }, { name: 'readout.value.bias', shape: [d], init: zeros });
    }
    if (vision.readout === 'conv' && vision.stem) {
      const fanIn = READOUT_CONV_KERNEL ** 2 * vision.stem.channels;
      specs.push(
        { name: 'readout.conv.weight', shape: [READOUT_CONV_KERNEL, READOUT_CONV_KERNEL, vision.stem.channels, READOUT_CONV_CHANNELS], init: normal(Math.sqrt(2 / fanIn)) },
        { name: 'readout.conv.bias', shape: [READOUT_CONV_CHANNELS], init: zeros },
        { name: 'readout.value.weight', shape: [READOUT_CONV_CHANNELS, d], init: normal(1 / Math.sqrt(READOUT_CONV_CHANNELS)) },
        { name: 'readout.value.bias', shape: [d], init: zeros },
      );
    }
    specs.push(
      { name: 'readout.up.weight', shape: [d, d], init: normal(1 / Math.sqrt(d)) },
      { name: 'readout.up.bias', shape: [d], init: zeros },
      { name: 'readout.down.weight', shape: [d, d], init: normal(0.02) },
    );
  }
  return specs;
}

/** The number of trainable values a model of this config has. */
export function countParameters(config: ModelConfig): number {
  return parameterSpecs(config).reduce((sum, spec) => sum + spec.shape.reduce((a, b) => a * b, 1), 0);
}

/** Initial values from a seed, in JS so that every backend (and the PyTorch peer) starts equal. */
export function initialParameterValues(config: ModelConfig, seed: number): Map<string, Float32Array> {
  const random = createRandom(seed);
  const values = new Map<string, Float32Array>();
  for (const spec of parameterSpecs(config)) {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const array = new Float32Array(size);
    if (spec.init.kind === 'ones') array.fill(1);
    else if (spec.init.kind === 'normal') {
      for (let index = 0; index < size; index++) array[index] = normalSample(random) * spec.init.std;
    }
    values.set(spec.name, array);
  }
  return values;
}
