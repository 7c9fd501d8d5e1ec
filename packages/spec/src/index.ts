// Contracts (types only).
export type { Agent, AgentActBatchOptions, AgentActOptions, AgentFinishReason, AgentOutput, AgentPrompt, AgentResponse, AgentUsage } from './v1/agent';
export type { Env, EnvResetOptions, ResetResult, StepResult } from './v1/env';
export type { EnvInfo, EnvMetrics } from './v1/env-info';
export { formatCorrectOf } from './v1/env-info';
export type { EnvSpec } from './v1/env-spec';
export type { ImageData, ImageMediaType } from './v1/image-data';
export { detectImageMediaType } from './v1/detect-image-media-type';
export type { ActionSpace, DiscreteActionSpace, TextActionSpace, ToolCallActionSpace } from './v1/action-space';
export type { ContentPart, ImagePart, Message, MessageRole, TextPart } from './v1/message';
export { partialAssistantText } from './v1/partial-assistant-text';
export type { Observation } from './v1/observation';
export type {
  CheckpointSavedEvent,
  EpisodeEndEvent,
  EpisodeStartEvent,
  EvalEndEvent,
  LogEvent,
  RolloutEndEvent,
  RunEndEvent,
  RunEvent,
  RunEventBase,
  RunEventType,
  RunStartEvent,
  TurnEndEvent,
  UpdateEndEvent,
} from './v1/run-event';
export type {
  StandardSchemaV1,
  StandardSchemaV1Issue,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
} from './v1/standard-schema';
export type { ImageBox, Tool, ToolExecuteOptions, ToolResult } from './v1/tool';
export type { EncodedChat, SequenceMessage, SequenceTokenizer } from './v1/sequence-tokenizer';
export type { MaskRle, SegmentationMask } from './v1/mask';
export { decodeMaskRle, describeMask, encodeMaskRle, MASK_COLOURS } from './v1/mask';
export type { ImageRef, StoredObservation, TrainedSequence, TrainingLeftOut, Trajectory, TrajectoryError, TrajectoryTraining, Turn, TurnPrompt, TurnTiming } from './v1/trajectory';

// Constants.
export { IMAGE_PLACEHOLDER, QUOTED_IMAGE_PLACEHOLDER, quoteModelText } from './v1/observation';
export { splitOnImages } from './v1/sequence-tokenizer';
export { SPECIFICATION_VERSION } from './v1/specification-version';
export type { SpecificationVersion } from './v1/specification-version';

// Errors.
export { ConformanceError } from './errors/conformance-error';
export { EnvAlreadyRegisteredError } from './errors/env-already-registered-error';
export { EnvNotFoundError } from './errors/env-not-found-error';
export { FileFormatError, type FileFormatErrorOptions } from './errors/file-format-error';
export { InvalidActionError } from './errors/invalid-action-error';
export { InvalidArgumentError } from './errors/invalid-argument-error';
export { InvalidStateError } from './errors/invalid-state-error';
export { SaccadeError } from './errors/saccade-error';
export { TimeoutError } from './errors/timeout-error';
export { ToolExecutionError } from './errors/tool-execution-error';
export { TrajectoryFileError } from './errors/trajectory-file-error';
