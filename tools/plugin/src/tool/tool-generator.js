// @ts-check
// `pnpm nx g @saccade/plugin:tool <name>`: a new tool package under packages/tools/<name>. The
// package skeleton comes from the template the scaffolder shares (../package-files.js); the tool,
// its tests, README and example from ./files. The package.json field `"saccade": {"tools": [...]}`
// names the exports that are tools, and the package becomes a dependency of @saccade/runner, which
// lists the tools of its dependencies that carry that field (`saccade tools list`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFiles, installPackagesTask, logger, names, readJson, updateJson } from '@nx/devkit';
import { packageFiles, sortKeys } from '../package-files.js';

/**
 * @typedef {object} ToolGeneratorSchema
 * @property {string} name The package's short name, e.g. `colour-picker` (the package is `@saccade/tool-colour-picker`).
 * @property {string} [description] What the tool does, for the model and the README.
 * @property {string} [toolName] The name the model calls (default: `name` in snake_case).
 * @property {boolean} [register] Add the package to the runner's dependencies (default true).
 * @property {boolean} [skipInstall] Do not run `pnpm install` afterwards (default false).
 */

/**
 * @typedef {object} NormalizedToolOptions
 * @property {string} fileName
 * @property {string} className
 * @property {string} propertyName
 * @property {string} toolName
 * @property {string} packageName
 * @property {string} folder
 * @property {string} description
 * @property {boolean} register
 * @property {boolean} skipInstall
 */

/** The runner's manifest: its dependencies with a `saccade.tools` field are the tools it lists. */
export const RUNNER_MANIFEST = 'apps/runner/package.json';

// Core's TOOL_NAME_PATTERN (OpenAI's rule for function names); the generator runs before core is built.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const PACKAGE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const DEFAULT_DESCRIPTION = 'Reports the media type and size of one of the episode images.';
const FALLBACK_ZOD_RANGE = '^4.1.0';
const FALLBACK_SACCADE_VERSION = '0.1.0';
const TOOLS_FOLDER = 'packages/tools';

const templates = join(dirname(fileURLToPath(import.meta.url)), 'files');

/**
 * Names and paths of the new package, or an Error that says what was expected.
 * @param {ToolGeneratorSchema} options
 * @returns {NormalizedToolOptions}
 */
export function normalizeToolOptions(options) {
  const raw = typeof options?.name === 'string' ? options.name.trim() : '';
  if (raw === '') throw new Error('expected a tool name such as colour-picker, received none');
  const { fileName, className, propertyName } = names(raw.replace(/^tool-/, ''));
  if (!PACKAGE_NAME.test(fileName)) {
    throw new Error(`expected a tool name of letters, digits and dashes that starts with a letter (e.g. colour-picker), received ${JSON.stringify(raw)}`);
  }
  const toolName = options.toolName ?? fileName.replaceAll('-', '_');
  if (!TOOL_NAME.test(toolName)) {
    throw new Error(`expected --toolName of letters, digits, "_" or "-", 1 to 64 characters (what models accept), received ${JSON.stringify(toolName)}`);
  }
  // One line, and nothing that closes the JSDoc comment it is written into.
  const description = (options.description ?? DEFAULT_DESCRIPTION).replace(/\s+/g, ' ').replaceAll('*/', '* /').trim() || DEFAULT_DESCRIPTION;
  return {
    fileName,
    className,
    propertyName,
    toolName,
    packageName: `@saccade/tool-${fileName}`,
    folder: `${TOOLS_FOLDER}/${fileName}`,
    description,
    register: options.register ?? true,
    skipInstall: options.skipInstall ?? false,
  };
}

/**
 * Writes the tool package into the tree.
 * @param {import('@nx/devkit').Tree} tree
 * @param {ToolGeneratorSchema} options
 * @returns {Promise<import('@nx/devkit').GeneratorCallback | undefined>}
 */
export async function toolGenerator(tree, options) {
  const normalized = normalizeToolOptions(options);
  const { folder, packageName, propertyName, description } = normalized;
  if (tree.exists(folder)) throw new Error(`expected ${folder} not to exist, it does: pick another name or remove it`);
  refuseTakenName(tree, TOOLS_FOLDER, packageName);

  const files = packageFiles({
    folder,
    name: packageName,
    description,
    dependencies: { ...saccadeDependencies(tree, ['@saccade/core', '@saccade/spec']), zod: zodRange(tree) },
    files: ['dist', 'examples', 'README.md'],
    extra: { saccade: { tools: [`${propertyName}Tool`] } },
  });
  for (const [path, content] of Object.entries(files)) tree.write(path, content);
  // The tool's own README and index replace the skeleton's.
  generateFiles(tree, templates, folder, { ...normalized, descriptionLiteral: JSON.stringify(description), tmpl: '' });

  if (normalized.register) registerWithRunner(tree, packageName);
  if (normalized.skipInstall) return undefined;
  // The new package and the runner's new dependency need linking even though the root package.json is unchanged.
  return () => installPackagesTask(tree, true);
}

export default toolGenerator;

/**
 * Adds the package to the runner's dependencies (sorted), where `saccade tools list` looks.
 * @param {import('@nx/devkit').Tree} tree
 * @param {string} packageName
 */
export function registerWithRunner(tree, packageName) {
  if (!tree.exists(RUNNER_MANIFEST)) {
    logger.warn(`${RUNNER_MANIFEST} is missing: ${packageName} was not added to the runner, so \`saccade tools list\` will not show it.`);
    return;
  }
  updateJson(tree, RUNNER_MANIFEST, (manifest) => ({
    ...manifest,
    dependencies: sortKeys({ ...(manifest.dependencies ?? {}), [packageName]: 'workspace:^' }),
  }));
}

/**
 * Refuses a package name another package in `parent` has (e.g. one kept in another folder).
 * @param {import('@nx/devkit').Tree} tree
 * @param {string} parent
 * @param {string} packageName
 */
export function refuseTakenName(tree, parent, packageName) {
  for (const child of tree.children(parent)) {
    const manifest = `${parent}/${child}/package.json`;
    if (tree.exists(manifest) && readJson(tree, manifest).name === packageName) {
      throw new Error(`expected a new package name, but ${manifest} is ${packageName} already`);
    }
  }
}

/**
 * Saccade's packages as dependencies: `workspace:^` inside the Saccade workspace (it has
 * packages/core), else the published range of this Saccade (a user's own workspace, which installs
 * Saccade from npm), so that `npm pack` there writes a range npm can install.
 * @param {import('@nx/devkit').Tree} tree
 * @param {string[]} packageNames
 * @returns {Record<string, string>}
 */
export function saccadeDependencies(tree, packageNames) {
  const range = tree.exists('packages/core/package.json') ? 'workspace:^' : `^${saccadeVersion()}`;
  return Object.fromEntries(packageNames.map((name) => [name, range]));
}

/** The version of the Saccade this plugin belongs to (its core package's). */
function saccadeVersion() {
  const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'packages', 'core', 'package.json');
  const version = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
  return typeof version === 'string' ? version : FALLBACK_SACCADE_VERSION;
}

/**
 * The zod range core uses, so the tool and core share one zod.
 * @param {import('@nx/devkit').Tree} tree
 * @returns {string}
 */
function zodRange(tree) {
  const core = 'packages/core/package.json';
  if (!tree.exists(core)) return FALLBACK_ZOD_RANGE;
  const range = readJson(tree, core).dependencies?.zod;
  return typeof range === 'string' ? range : FALLBACK_ZOD_RANGE;
}
