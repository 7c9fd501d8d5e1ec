export { createRemoteTool, remoteToolResponseSchema } from './remote-tool';
export type { RemoteToolRequest, RemoteToolResponse, RemoteToolSettings } from './remote-tool';
