export { createRemoteTool, remoteToolResponseSchema } from './remote-tool';
export type { RemoteToolRequest, RemoteToolResponse, RemoteToolSettings } from './remote-tool';
export { createRemoteVlmTool, parseVlmBoxes, parseVlmTable, REMOTE_VLM_PROMPTS, REMOTE_VLM_TASKS, remoteVlmTool } from './remote-vlm-tool';
export type { RemoteVlmTask, RemoteVlmToolSettings, VlmBox } from './remote-vlm-tool';
export { createRemoteModelTool, remoteModelTool } from './remote-model-tool';
export type { RemoteModelToolSettings } from './remote-model-tool';
