// @ts-check
export { toolGenerator, normalizeToolOptions, registerWithRunner, RUNNER_MANIFEST } from './tool/tool-generator.js';
export { json, normalizeFolder, packageFiles, packageManifest, pathToRoot, sortKeys } from './package-files.js';
