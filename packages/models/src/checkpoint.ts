import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@saccade/spec';
import { CheckpointError } from './checkpoint-error';
import { readModelConfig, type ModelConfig } from './model-config';
import { createAdamOptimizer } from './train-step';
import { Tokenizer, type TokenizerJson } from './tokenizer';
import { VisionLanguageModel } from './vision-language-model';

/** checkpoint/manifest.json: what weights.bin (and optimizer.bin) hold. */
export interface CheckpointManifest {
  format: 'saccade-model';
  version: 1;
  weights: TensorEntry[];
  optimizer?: {
    type: 'adam';
    learningRate: number;
    beta1: number;
    beta2: number;
    epsilon: number;
    /** Updates applied so far (Adam's step). */
    iterations: number;
    /**
     * β1^t and β2^t as the optimizer holds them: tfjs multiplies them by β each step in float32,
     * and rebuilding them as pow(β, t) differs in the last bits, so a resumed run would drift.
     */
    accumulatedBeta1?: number;
    accumulatedBeta2?: number;
    /** `<weight>/m` entries, then `<weight>/v`, in optimizer.bin. */
    slots: TensorEntry[];
  };
  metadata?: Record<string, unknown>;
}

/** Where one tensor lies in a checkpoint's binary file: its name, shape, dtype and offset. */
export interface TensorEntry {
  name: string;
  shape: number[];
  dtype: 'float32';
  /** Offset in floats into the binary file. */
  offset: number;
}

/**
 * What saveCheckpoint writes: the model, its optimizer's state (to resume training exactly) and the
 * caller's metadata.
 */
export interface SaveCheckpointOptions {
  model: VisionLanguageModel;
  optimizer?: tf.AdamOptimizer;
  /** Anything JSON the caller wants back (step, metrics). */
  metadata?: Record<string, unknown>;
}

/**
 * Writes config.json, tokenizer.json, manifest.json, weights.bin (and optimizer.bin) into a
 * temporary sibling folder, then renames it into place: a crash never leaves half a checkpoint.
 */
export async function saveCheckpoint(folder: string, options: SaveCheckpointOptions): Promise<void> {
  const { model, optimizer } = options;
  const temporary = join(dirname(folder), `.${basename(folder)}.tmp-${process.pid}-${Date.now()}`);
  await mkdir(temporary, { recursive: true });
  try {
    const weights = model.getWeights();
    const weightEntries: TensorEntry[] = [];
    const weightData = packTensors(
      model.weightNames.map((name) => ({ name, shape: model.weight(name).shape, values: weights.get(name) ?? new Float32Array() })),
      weightEntries,
    );
    const manifest: CheckpointManifest = { format: 'saccade-model', version: 1, weights: weightEntries };
    if (options.metadata) manifest.metadata = options.metadata;
    if (optimizer) {
      const state = await optimizer.getWeights();
      const iterations = (await state[0]?.tensor.data())?.[0] ?? 0;
      // getWeights makes a new scalar for the step count (the slots are the live variables).
      state[0]?.tensor.dispose();
      const slots: TensorEntry[] = [];
      const slotTensors = state.slice(1).map((entry) => {
        const [variableName = '', suffix = ''] = splitSlotName(entry.name);
        const logical = model.logicalName(variableName);
        if (!logical) throw new Error(`Optimizer slot ${entry.name} is not one of this model's weights.`);
        return { name: `${logical}/${suffix}`, shape: entry.tensor.shape, values: entry.tensor.dataSync() as Float32Array };
      });
      const optimizerData = packTensors(slotTensors, slots);
      const config = optimizer.getConfig() as { learningRate: number; beta1: number; beta2: number; epsilon: number };
      const { accBeta1, accBeta2 } = optimizer as unknown as AdamAccumulators;
      manifest.optimizer = { type: 'adam', ...pick(config), iterations, accumulatedBeta1: accBeta1.dataSync()[0]!, accumulatedBeta2: accBeta2.dataSync()[0]!, slots };
      await writeFile(join(temporary, 'optimizer.bin'), optimizerData);
    }
    await writeFile(join(temporary, 'weights.bin'), weightData);
    await writeFile(join(temporary, 'config.json'), JSON.stringify(model.config, null, 2) + '\n');
    await writeFile(join(temporary, 'tokenizer.json'), JSON.stringify(model.tokenizer.toJSON()) + '\n');
    await writeFile(join(temporary, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    const previous = `${temporary}.previous`;
    let replaced = false;
    try {
      await rename(folder, previous);
      replaced = true;
    } catch {
      // No checkpoint there yet.
    }
    await rename(temporary, folder);
    if (replaced) await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The config loadCheckpoint requires the checkpoint to have, so a resumed run fails early on a
 * model of another shape.
 */
export interface LoadCheckpointOptions {
  /** When given, the checkpoint's config must equal it (else CheckpointError naming the field). */
  expectedConfig?: ModelConfig;
}

/**
 * What loadCheckpoint read back: a new model, its optimizer when one was saved, and the caller's
 * metadata.
 */
export interface LoadedCheckpoint {
  model: VisionLanguageModel;
  /** The Adam optimizer with its moments and step, when the checkpoint holds one. */
  optimizer?: tf.AdamOptimizer;
  metadata?: Record<string, unknown>;
}

/** Reads a checkpoint into a new model (and optimizer). */
export async function loadCheckpoint(folder: string, options: LoadCheckpointOptions = {}): Promise<LoadedCheckpoint> {
  const config = await readCheckpointConfig(folder);
  if (options.expectedConfig) assertSameConfig(folder, options.expectedConfig, config);
  const tokenizer = new Tokenizer(await readJson<TokenizerJson>(folder, 'tokenizer.json'));
  const manifest = await readManifest(folder);
  const weights = unpackTensors(await readBinary(folder, 'weights.bin'), manifest.weights);
  const model = new VisionLanguageModel(config, tokenizer, weights);
  const optimizer = manifest.optimizer ? await restoreOptimizer(folder, model, manifest.optimizer) : undefined;
  const result: LoadedCheckpoint = { model };
  if (optimizer) result.optimizer = optimizer;
  if (manifest.metadata) result.metadata = manifest.metadata;
  return result;
}

/** Loads a checkpoint's weights into an existing model of the same config (e.g. a reference policy). */
export async function loadCheckpointWeights(folder: string, model: VisionLanguageModel): Promise<void> {
  assertSameConfig(folder, model.config, await readCheckpointConfig(folder));
  const manifest = await readManifest(folder);
  model.setWeights(unpackTensors(await readBinary(folder, 'weights.bin'), manifest.weights));
}

/**
 * A checkpoint's config.json as the grouped config, whichever form it was written in (checkpoints
 * written before the vision switches were grouped hold the flat form); a bad value is a
 * CheckpointError naming the field.
 */
async function readCheckpointConfig(folder: string): Promise<ModelConfig> {
  const stored = await readJson<unknown>(folder, 'config.json');
  try {
    return readModelConfig(stored);
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error)) throw error;
    throw new CheckpointError({
      path: folder,
      field: error.argument.replace(/^ModelConfig\.?/, ''),
      received: error.value,
      message: `Checkpoint ${folder} has a config.json no model can be built from: ${error.message}`,
      cause: error,
    });
  }
}

/** Throws CheckpointError naming the first config field that differs (a dotted path inside vision). */
export function assertSameConfig(path: string, expected: ModelConfig, received: ModelConfig): void {
  const difference = firstDifference(expected, received, '');
  if (!difference) return;
  const [field, want, got] = difference;
  throw new CheckpointError({
    path,
    field,
    expected: want,
    received: got,
    message: `Checkpoint ${path} is for another model: config.${field} is ${describeValue(got)}, expected ${describeValue(want)}.`,
  });
}

/** The first field (dotted path) where two configs differ, with both values. */
function firstDifference(expected: unknown, received: unknown, prefix: string): [string, unknown, unknown] | undefined {
  const nested = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
  if (!nested(expected) || !nested(received)) return expected === received ? undefined : [prefix, expected, received];
  for (const key of new Set([...Object.keys(expected), ...Object.keys(received)])) {
    const found = firstDifference(expected[key], received[key], prefix ? `${prefix}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

function describeValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

async function restoreOptimizer(
  folder: string,
  model: VisionLanguageModel,
  state: NonNullable<CheckpointManifest['optimizer']>,
): Promise<tf.AdamOptimizer> {
  const optimizer = createAdamOptimizer(state);
  const slots = unpackTensors(await readBinary(folder, 'optimizer.bin'), state.slots);
  const variables = model.trainableVariables;
  // Adam keeps its slots by position in the gradient list, which applyLoss keeps canonical.
  const named = (suffix: 'm' | 'v'): { name: string; tensor: tf.Tensor }[] =>
    variables.map((variable, index) => {
      const logical = model.weightNames[index] ?? '';
      const values = slots.get(`${logical}/${suffix}`);
      if (!values) throw new CheckpointError({ path: folder, message: `Checkpoint ${folder} lacks optimizer slot ${logical}/${suffix}.` });
      return { name: `${variable.name}/${suffix}`, tensor: tf.tensor(values, variable.shape, 'float32') };
    });
  const slotTensors = state.slots.length > 0 ? [...named('m'), ...named('v')] : [];
  const iterations = tf.scalar(state.iterations, 'int32');
  await optimizer.setWeights([{ name: 'iter', tensor: iterations }, ...slotTensors]);
  // setWeights copies into new variables; the inputs are ours to free.
  tf.dispose([iterations, ...slotTensors.map((entry) => entry.tensor)]);
  // setWeights rebuilt β^t as pow(β, t + 1); the saved values are the ones the run would go on with.
  const accumulators = optimizer as unknown as AdamAccumulators;
  for (const [variable, value] of [[accumulators.accBeta1, state.accumulatedBeta1], [accumulators.accBeta2, state.accumulatedBeta2]] as const) {
    if (value !== undefined) tf.tidy(() => variable.assign(tf.scalar(value)));
  }
  return optimizer;
}

/** tfjs's Adam keeps β1^t and β2^t in these (private) variables. */
interface AdamAccumulators {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
}

function pick(config: { learningRate: number; beta1: number; beta2: number; epsilon: number }) {
  return { learningRate: config.learningRate, beta1: config.beta1, beta2: config.beta2, epsilon: config.epsilon };
}

function splitSlotName(name: string): [string, string] {
  const slash = name.lastIndexOf('/');
  return [name.slice(0, slash), name.slice(slash + 1)];
}

function packTensors(tensors: { name: string; shape: number[]; values: Float32Array }[], entries: TensorEntry[]): Uint8Array {
  const total = tensors.reduce((sum, tensor) => sum + tensor.values.length, 0);
  const data = new Float32Array(total);
  let offset = 0;
  for (const tensor of tensors) {
    entries.push({ name: tensor.name, shape: [...tensor.shape], dtype: 'float32', offset });
    data.set(tensor.values, offset);
    offset += tensor.values.length;
  }
  return new Uint8Array(data.buffer);
}

function unpackTensors(bytes: Uint8Array, entries: readonly TensorEntry[]): Map<string, Float32Array> {
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  const result = new Map<string, Float32Array>();
  for (const entry of entries) {
    const size = entry.shape.reduce((a, b) => a * b, 1);
    result.set(entry.name, floats.slice(entry.offset, entry.offset + size));
  }
  return result;
}

async function readManifest(folder: string): Promise<CheckpointManifest> {
  const manifest = await readJson<CheckpointManifest>(folder, 'manifest.json');
  if (manifest.format !== 'saccade-model' || manifest.version !== 1) {
    throw new CheckpointError({
      path: folder,
      field: 'format',
      expected: 'saccade-model v1',
      received: `${String(manifest.format)} v${String(manifest.version)}`,
      message: `Checkpoint ${folder} has format ${String(manifest.format)} v${String(manifest.version)}; expected saccade-model v1.`,
    });
  }
  return manifest;
}

async function readJson<T>(folder: string, file: string): Promise<T> {
  try {
    return JSON.parse(await readFile(join(folder, file), 'utf8')) as T;
  } catch (cause) {
    throw new CheckpointError({ path: folder, message: `Cannot read ${file} of checkpoint ${folder}.`, cause });
  }
}

async function readBinary(folder: string, file: string): Promise<Uint8Array> {
  try {
    // Copy into an aligned buffer for the Float32Array view.
    return new Uint8Array(await readFile(join(folder, file)));
  } catch (cause) {
    throw new CheckpointError({ path: folder, message: `Cannot read ${file} of checkpoint ${folder}.`, cause });
  }
}
