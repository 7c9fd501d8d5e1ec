// @ts-check
export { envGenerator, normalizeEnvOptions } from './env/env-generator.js';
export { toolGenerator, normalizeToolOptions, registerWithRunner, RUNNER_MANIFEST, saccadeDependencies } from './tool/tool-generator.js';
export { json, normalizeFolder, packageFiles, packageManifest, pathToRoot, sortKeys } from './package-files.js';
