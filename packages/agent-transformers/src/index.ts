export { createTransformersAgent } from './create-transformers-agent';
export type { TransformersAgent, TransformersAgentSettings } from './create-transformers-agent';
export { DTYPE_SUFFIXES, inspectModelFolder, resolvePartDtype, SUPPORTED_MODEL_TYPES } from './model-folder';
export type { DtypeSetting, ModelDtype, ModelFamily, ModelFolder } from './model-folder';
export { createStopWatcher, truncateAtStop } from './stop-strings';
export type { StopWatcherOptions } from './stop-strings';
export { taskPrompt, toProcessorChat } from './to-processor-chat';
export type { ProcessorChatMessage } from './to-processor-chat';
export { ModelFolderError } from './errors/model-folder-error';
