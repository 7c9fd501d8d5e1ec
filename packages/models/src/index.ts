// The model.
export { VisionLanguageModel, causalBias, resolveModelConfig } from './vision-language-model';
export type { CreateModelOptions, ForwardOutput, LogProbsAndValues, SamplingDistribution } from './vision-language-model';
export {
  MODEL_PRESETS,
  applyModelConfigOverrides,
  imageTokenCount,
  patchCount,
  patchDimension,
  patchFeatureDimension,
  patchGrid,
  readModelConfig,
  validateModelConfig,
} from './model-config';
export type {
  FlatModelConfig,
  GridLayersConfig,
  ImageReadout,
  ReadoutImages,
  ModelConfig,
  ModelConfigOverrides,
  ModelPresetName,
  PixelStemConfig,
  PointerImage,
  StemPooling,
  VisionConfig,
} from './model-config';
export { countParameters, initialParameterValues, parameterSpecs } from './model-parameters';
export type { ParameterInit, ParameterSpec } from './model-parameters';
export { MASKED, prepareInputs } from './model-inputs';
export type { ModelInputs, ModelSequence, PrepareInputsOptions } from './model-inputs';

// Tokens and chat.
export { CONTROL_TOKENS, FORMAT_TAGS, Tokenizer } from './tokenizer';
export type { DecodeOptions, TokenizerJson } from './tokenizer';
export { applyChatTemplate } from './chat-template';
export type { ChatSequence, ChatTemplateOptions } from './chat-template';
export { createModelSequenceTokenizer } from './model-sequence-tokenizer';
export type { ModelSequenceTokenizerOptions } from './model-sequence-tokenizer';

// Images.
export type { RgbImage } from './rgb-image';
export { resizeRgb, writePatches } from './image-patches';
export { decodeImageData } from './decode-image-data';

// Generation and the agent.
export { generate } from './generate';
export type { GenerateOptions, GeneratedSample } from './generate';
export { bannedTokenIds, sampleToken } from './sample-token';
export type { SampleSettings, SampledToken } from './sample-token';
export { createRandom } from './seeded-random';
export type { RandomSource } from './seeded-random';
export { createImageDecoder, createModelAgent, fitPrompt } from './model-agent';
export { createContinuingModelAgent } from './continuing-model-agent';
export type { ModelAgentSettings, ModelGenerator } from './model-agent';

// Training.
export { applyGradients, applyLoss, clipByGlobalNorm, createAdamOptimizer, setLearningRate } from './train-step';
export type { AdamSettings, ApplyLossOptions, ApplyLossResult, ClippedGradients } from './train-step';

// Checkpoints.
export { assertSameConfig, loadCheckpoint, loadCheckpointWeights, saveCheckpoint } from './checkpoint';
export type {
  CheckpointManifest,
  LoadCheckpointOptions,
  LoadedCheckpoint,
  SaveCheckpointOptions,
  TensorEntry,
} from './checkpoint';
export { CheckpointError } from './checkpoint-error';

// Where time goes (bench models --profile).
export { PhaseTimer, activePhaseTimer, formatPhaseTable, phaseTable, setPhaseTimer, timePhase } from './phase-timer';
export type { PhaseRow, PhaseSnapshot, PhaseTable, PhaseTotal, PhaseTotals } from './phase-timer';

// Data-parallel training (worker threads).
export { DataParallel, splitIntoShards } from './parallel/data-parallel';
export type { DataParallelOptions, DataParallelStepOptions, DataParallelStepResult } from './parallel/data-parallel';
export type { LossReference, ShardLoss, ShardLossOutput } from './parallel/shard-loss';
export { exampleCost, QUADRATIC_COST_FROM, shardGradients } from './parallel/shard-gradients';
export type { ShardGradients } from './parallel/shard-gradients';
