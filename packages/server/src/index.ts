// Services.
export { createEnvServer } from './env/create-env-server';
export type { EnvServerOptions } from './env/create-env-server';
export { createToolServer } from './tool/create-tool-server';
export type { ToolServerOptions, VerlToolObservation } from './tool/create-tool-server';
export { createModelServer } from './model/create-model-server';
export type { ModelServerOptions } from './model/create-model-server';
export { createRewardServer } from './reward/create-reward-server';
export type { RewardScore, RewardServerOptions } from './reward/create-reward-server';
export type { SaccadeServer, ServiceOptions } from './http/create-http-service';

// The remote env client.
export { RemoteEnv, createRemoteEnv } from './env/create-remote-env';
export type { RemoteEnvSettings } from './env/create-remote-env';

// Protocol helpers.
export { VAGEN_CONFIG_NAMES, resolveEnvConfig } from './env/vagen-env-configs';
export type { ResolvedEnvConfig } from './env/vagen-env-configs';
export { VAGEN_LAYOUT_FORMATS, VAGEN_PROMPT_FORMATS, vagenPromptFormat } from './env/vagen-prompt-formats';
export { TRAJECTORY_METRICS, toVagenInfo, toVagenObservation } from './env/vagen-serialisation';
export type { VagenImage, VagenObservation } from './env/vagen-serialisation';
export { fromWireObservation, toWireObservation } from './env/wire-observation';
export type { WireImage, WireObservation } from './env/wire-observation';
export { fromDataUrl, toDataUrl } from './http/data-url';
export { SessionStore } from './http/session-store';
export type { SessionStoreOptions } from './http/session-store';

// Errors.
export { ServerRequestError } from './http/server-request-error';
export { createEnvRouter, shardOf } from './env/create-env-router';
export type { EnvRouterOptions } from './env/create-env-router';
