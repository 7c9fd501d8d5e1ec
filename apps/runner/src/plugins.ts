import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkEnv, checkTool, listEnvs, makeEnv } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import type { Command } from 'commander';
import { isTool, toolPackageField, type ToolPackage } from './builtin-tools';
import { PluginError } from './plugin-error';
import { runnerManifestPath } from './saccade-packages';

/** The environment variable that names plug-ins for every command: package names or paths, comma-separated. */
export const PLUGINS_VARIABLE = 'SACCADE_PLUGINS';

/** A plug-in package, loaded and checked. */
export interface LoadedPlugin {
  /** How a run config records it: the package name, or the absolute folder of one given by path. */
  spec: string;
  /** Its package name. */
  name: string;
  /** The folder its package.json is in (real path). */
  directory: string;
  /** The env ids it registered. */
  envs: string[];
  /** Its tool package entry, when it ships tools (registered by `registerBuiltinTools`). */
  tools?: ToolPackage;
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

// By real folder: a plug-in named twice (a flag and the run's config) loads once per process.
const loaded = new Map<string, Promise<LoadedPlugin>>();

/** The tool packages of the plug-ins loaded so far, in load order. */
export async function pluginToolPackages(): Promise<ToolPackage[]> {
  const plugins = await Promise.all([...loaded.values()].map((plugin) => plugin.catch(() => undefined)));
  return plugins.flatMap((plugin) => (plugin?.tools === undefined ? [] : [plugin.tools]));
}

/** The plug-ins a command was given: its `--plugin` flags (a program option), then `SACCADE_PLUGINS`. */
export function requestedPlugins(command: Command | undefined, environment: NodeJS.ProcessEnv = process.env): string[] {
  const flags = (command?.optsWithGlobals() as { plugin?: string[] } | undefined)?.plugin ?? [];
  const variable = (environment[PLUGINS_VARIABLE] ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  return [...new Set([...flags, ...variable])];
}

/**
 * Loads plug-in packages given by name (installed where the command runs, or beside saccade) or by
 * path (a package folder): reads the package.json's `"saccade"` field, imports the package, calls
 * the exports that register its envs and runs `checkEnv` on each env they registered, and runs
 * `checkTool` on each tool it lists. A package that fails any step is a {@link PluginError} naming
 * it and what was wrong; nothing of a failed package stays registered but what its own code did.
 */
export async function loadPlugins(specs: readonly string[], cwd: string = process.cwd()): Promise<LoadedPlugin[]> {
  const plugins: LoadedPlugin[] = [];
  for (const spec of specs) {
    const found = locatePlugin(spec, cwd);
    let plugin = loaded.get(found.directory);
    if (plugin === undefined) {
      plugin = loadPlugin(found);
      loaded.set(found.directory, plugin);
      plugin.catch(() => loaded.delete(found.directory));
    }
    plugins.push(await plugin);
  }
  return plugins;
}

interface LocatedPlugin {
  spec: string;
  asked: string;
  name: string;
  directory: string;
  manifest: Record<string, unknown>;
}

/** The package folder a spec names: a path (starts with `.` or `/`, or a folder that exists), else a package name. */
function locatePlugin(asked: string, cwd: string): LocatedPlugin {
  const byPath = asked.startsWith('.') || isAbsolute(asked) || asked.startsWith('file:');
  let directory: string | undefined;
  if (byPath) {
    const path = resolve(cwd, asked.startsWith('file:') ? new URL(asked).pathname : asked);
    if (!existsSync(join(path, 'package.json'))) throw new PluginError({ plugin: asked, message: `expected a package folder with a package.json at ${path}, found none` });
    directory = path;
  } else {
    // Where the command runs first (a project's node_modules), then beside saccade (installed with it).
    const bases = [join(cwd, 'package.json'), runnerManifestPath()];
    directory = bases
      .flatMap((base) => createRequire(base).resolve.paths(asked) ?? [])
      .map((folder) => join(folder, asked))
      .find((folder) => existsSync(join(folder, 'package.json')));
    if (directory === undefined) {
      throw new PluginError({ plugin: asked, message: `no package of that name is installed in ${cwd} or beside saccade; install it (npm install ${asked}) or give its folder (--plugin ./path/to/package)` });
    }
  }
  const real = realpathSync(directory);
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new PluginError({ plugin: asked, message: `its package.json (${join(real, 'package.json')}) is not JSON: ${(error as Error).message}`, cause: error });
  }
  const name = typeof manifest['name'] === 'string' ? manifest['name'] : real;
  return { asked, spec: byPath ? real : asked, name, directory: real, manifest };
}

async function loadPlugin(found: LocatedPlugin): Promise<LoadedPlugin> {
  const fail = (message: string, cause?: unknown): never => {
    throw new PluginError({ plugin: found.asked === found.name ? found.name : `${found.asked} (${found.name})`, message, ...(cause === undefined ? {} : { cause }) });
  };
  const field = found.manifest['saccade'];
  if (typeof field !== 'object' || field === null || Array.isArray(field) || (!('tools' in field) && !('envs' in field))) {
    return fail(`expected its package.json to name what it registers, "saccade": {"tools": ["<export>", …]} or {"envs": ["<export that registers envs>", …]}, it has ${field === undefined ? 'no "saccade" field' : JSON.stringify(field)}`);
  }
  const saccade = field as Record<string, unknown>;
  // A package the runner already depends on registered its envs and tools at start-up.
  if (runnerDependencies().has(found.name)) {
    return { spec: found.spec, name: found.name, directory: found.directory, envs: [] };
  }
  const envExports = saccade['envs'];
  if (envExports !== undefined && (!Array.isArray(envExports) || envExports.length === 0 || !envExports.every((entry) => typeof entry === 'string' && EXPORT_NAME.test(entry)))) {
    fail(`expected "saccade": {"envs": ["<export that registers envs>", …]} in its package.json, it has ${JSON.stringify(envExports)}`);
  }
  let tools: ToolPackage | undefined;
  if (saccade['tools'] !== undefined) {
    const parsed = toolPackageField.safeParse(saccade);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${['saccade', ...issue.path].join('.')}: ${issue.message}`).join('; ');
      fail(`expected "saccade": {"tools": ["<export>", …], "close"?: "<export>"} in its package.json, it has ${JSON.stringify(saccade)} (${problems})`);
    }
    tools = { name: found.name, directory: found.directory, entry: entryOf(found, fail), ...parsed.data! };
  }

  const entry = tools?.entry ?? entryOf(found, fail);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    return fail(`importing ${entry} failed: ${(error as Error).message}`, error);
  }

  const envs: string[] = [];
  for (const exportName of (envExports as string[] | undefined) ?? []) {
    const register = module[exportName];
    if (typeof register !== 'function') fail(`expected it to export a function named ${exportName} (its package.json lists it in saccade.envs), received ${register === undefined ? 'no such export' : typeof register}`);
    const before = new Set(listEnvs());
    try {
      (register as () => void)();
    } catch (error) {
      fail(`${exportName}() threw: ${(error as Error).message}`, error);
    }
    envs.push(...listEnvs().filter((id) => !before.has(id)));
  }
  if (envExports !== undefined && envs.length === 0) fail(`its saccade.envs exports (${(envExports as string[]).join(', ')}) registered no env`);
  for (const id of envs) {
    const report = await checkEnv(() => makeEnv(id));
    if (!report.ok) fail(`its env ${id} fails checkEnv:\n${report.failures.map((failure) => `  - ${failure}`).join('\n')}`);
  }

  for (const exportName of tools?.tools ?? []) {
    const tool = module[exportName];
    if (!isTool(tool)) fail(`expected it to export a tool named ${exportName} (its package.json lists it in saccade.tools), received ${tool === undefined ? 'no such export' : typeof tool}`);
    const report = await checkTool(tool as Tool);
    if (!report.ok) fail(`its tool ${report.toolName} (export ${exportName}) fails checkTool:\n${report.failures.map((failure) => `  - ${failure}`).join('\n')}`);
  }
  return { spec: found.spec, name: found.name, directory: found.directory, envs, ...(tools === undefined ? {} : { tools }) };
}

function runnerDependencies(): Set<string> {
  const manifest = JSON.parse(readFileSync(runnerManifestPath(), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  return new Set(Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
}

/** The file `import` loads: the exports map's `import` (or `default`) entry for ".", else `module` or `main`. */
function entryOf(found: LocatedPlugin, fail: (message: string) => never): string {
  const pick = (target: unknown): string | undefined => {
    if (typeof target === 'string') return target;
    if (typeof target !== 'object' || target === null) return undefined;
    const conditions = target as Record<string, unknown>;
    // The workspace's source condition points at TypeScript, which Node does not run: the built entry it is.
    for (const condition of ['import', 'node', 'default']) {
      const chosen = pick(conditions[condition]);
      if (chosen !== undefined) return chosen;
    }
    return undefined;
  };
  const exports = found.manifest['exports'];
  const dot = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.')) ? (exports as Record<string, unknown>)['.'] : exports;
  const relative = pick(dot) ?? (typeof found.manifest['module'] === 'string' ? found.manifest['module'] : undefined) ?? (typeof found.manifest['main'] === 'string' ? found.manifest['main'] : 'index.js');
  const entry = resolve(found.directory, relative);
  if (!existsSync(entry) || !statSync(entry).isFile()) fail(`expected its entry ${entry} to exist; build the package first (npm run build)`);
  return entry;
}
