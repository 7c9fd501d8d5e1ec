export { REMOTE_ENV_ID, VagenRemoteEnv, registerRemoteEnvs } from './vagen-remote-env';
export type { VagenRemoteEnvOptions } from './vagen-remote-env';
export { RemoteEnvError } from './remote-env-error';
