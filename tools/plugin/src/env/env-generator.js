// @ts-check
// `pnpm nx g @saccade/plugin:env <name>`: a new env package under packages/envs/<name>, beside the
// tool generator. The package skeleton comes from the shared template (../package-files.js); the
// env, its tests, README and example from ./files. The package.json field
// `"saccade": {"envs": ["register<Name>Envs"]}` names the exports that register envs, and the package
// becomes a dependency of @saccade/runner, which calls them for the packages it depends on
// (`saccade envs list`, `train --env`, `eval`, `serve env`).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFiles, installPackagesTask, names } from '@nx/devkit';
import { packageFiles } from '../package-files.js';
import { refuseTakenName, registerWithRunner, saccadeDependencies } from '../tool/tool-generator.js';

/**
 * @typedef {object} EnvGeneratorSchema
 * @property {string} name The package's short name, e.g. `line-walk` (the package is `@saccade/env-line-walk`).
 * @property {string} [description] What the env is, for the registry and the README.
 * @property {boolean} [register] Add the package to the runner's dependencies (default true).
 * @property {boolean} [skipInstall] Do not run `pnpm install` afterwards (default false).
 */

/**
 * @typedef {object} NormalizedEnvOptions
 * @property {string} fileName
 * @property {string} className
 * @property {string} constantName
 * @property {string} envId
 * @property {string} packageName
 * @property {string} folder
 * @property {string} description
 * @property {boolean} register
 * @property {boolean} skipInstall
 */

const PACKAGE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const DEFAULT_DESCRIPTION = 'Walk along a line of cells to the target, one move a turn.';
const ENVS_FOLDER = 'packages/envs';

const templates = join(dirname(fileURLToPath(import.meta.url)), 'files');

/**
 * Names and paths of the new package, or an Error that says what was expected.
 * @param {EnvGeneratorSchema} options
 * @returns {NormalizedEnvOptions}
 */
export function normalizeEnvOptions(options) {
  const raw = typeof options?.name === 'string' ? options.name.trim() : '';
  if (raw === '') throw new Error('expected an env name such as line-walk, received none');
  const { fileName, className, constantName } = names(raw.replace(/^env-/, ''));
  if (!PACKAGE_NAME.test(fileName)) {
    throw new Error(`expected an env name of letters, digits and dashes that starts with a letter (e.g. line-walk), received ${JSON.stringify(raw)}`);
  }
  // One line, and nothing that closes the JSDoc comment it is written into.
  const description = (options.description ?? DEFAULT_DESCRIPTION).replace(/\s+/g, ' ').replaceAll('*/', '* /').trim() || DEFAULT_DESCRIPTION;
  return {
    fileName,
    className,
    constantName,
    envId: `saccade/${className}-v1`,
    packageName: `@saccade/env-${fileName}`,
    folder: `${ENVS_FOLDER}/${fileName}`,
    description,
    register: options.register ?? true,
    skipInstall: options.skipInstall ?? false,
  };
}

/**
 * Writes the env package into the tree.
 * @param {import('@nx/devkit').Tree} tree
 * @param {EnvGeneratorSchema} options
 * @returns {Promise<import('@nx/devkit').GeneratorCallback | undefined>}
 */
export async function envGenerator(tree, options) {
  const normalized = normalizeEnvOptions(options);
  const { folder, packageName, className, description } = normalized;
  if (tree.exists(folder)) throw new Error(`expected ${folder} not to exist, it does: pick another name or remove it`);
  refuseTakenName(tree, ENVS_FOLDER, packageName);

  const files = packageFiles({
    folder,
    name: packageName,
    description,
    dependencies: saccadeDependencies(tree, ['@saccade/core', '@saccade/spec']),
    files: ['dist', 'examples', 'README.md'],
    extra: { saccade: { envs: [`register${className}Envs`] } },
  });
  for (const [path, content] of Object.entries(files)) tree.write(path, content);
  // The env's own README and index replace the skeleton's.
  generateFiles(tree, templates, folder, { ...normalized, descriptionLiteral: JSON.stringify(description), tmpl: '' });

  if (normalized.register) registerWithRunner(tree, packageName);
  if (normalized.skipInstall) return undefined;
  return () => installPackagesTask(tree, true);
}

export default envGenerator;
