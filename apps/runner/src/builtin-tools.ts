import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { registerTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { pluginToolPackages } from './plugins';
import { findSaccadePackages, runnerManifestPath } from './saccade-packages';

/**
 * What a tool package says about itself in its package.json:
 * `"saccade": {"tools": ["zoomTool", "rotateTool"], "close": "closeOcrEngines", "create": {"detect": "createDetectTool"}}`:
 * the exports that are tools, a function that releases what they keep open between calls (optional),
 * and for tools that take settings (a model file, a server's URL) the export that makes one from them.
 */
const exportName = z.string().regex(/^[A-Za-z_$][\w$]*$/, 'expected the name of an export');
export const toolPackageField = z.object({
  tools: z.array(exportName).min(1),
  close: exportName.optional(),
  /** A function that opens what the tools load on first use (models), for long-running services. */
  warm: exportName.optional(),
  /** Tools that take settings: tool name → the export that makes one from a settings object. */
  create: z.record(z.string(), exportName).optional(),
});

/** A dependency that ships tools. */
export interface ToolPackage {
  /** Its package name, e.g. `@saccade/tool-zoom`. */
  name: string;
  /** The folder its package.json is in. */
  directory: string;
  /** The exports that are tools. */
  tools: string[];
  /** The export that closes what the tools keep open, when there is one. */
  close?: string;
  /** Tool name → the export that makes that tool from settings. */
  create?: Record<string, string>;
  /** The export that loads the tools' models ahead of the first call, when there is one. */
  warm?: string;
  /** The file to import, for a plug-in loaded from outside the runner's dependencies (default: import by name). */
  entry?: string;
}

/** Settings by tool name, as `--tool-options '{"detect": {"model": "yolo11n.onnx"}}'` gives them. */
export type ToolOptions = Record<string, Record<string, unknown>>;

/** `--tool-options` JSON: an object of objects by tool name; throws a message that says what came. */
export function parseToolOptions(text: string | undefined, flag = '--tool-options'): ToolOptions {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text);
  } catch (error) {
    throw new Error(`${flag}: expected JSON settings by tool name (or @file), e.g. '{"remote-vlm": {"url": "http://localhost:8000/v1"}}': ${(error as Error).message}`);
  }
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(parsed) || !Object.values(parsed).every(isObject)) {
    throw new Error(`${flag}: expected an object of settings objects by tool name, e.g. '{"detect": {"model": "yolo.onnx"}}', received ${JSON.stringify(parsed).slice(0, 120)}`);
  }
  return parsed as ToolOptions;
}

/**
 * The packages among the dependencies of a package.json whose own package.json carries a
 * `saccade.tools` field, sorted by name. A dependency that cannot be found is skipped (an optional
 * one that did not install); a malformed field is an Error that names the package.
 */
export function findToolPackages(manifestPath: string): ToolPackage[] {
  return findSaccadePackages(manifestPath, 'tools').map(({ name, directory, field }) => {
    const parsed = toolPackageField.safeParse(field);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${['saccade', ...issue.path].join('.')}: ${issue.message}`).join('; ');
      throw new Error(`expected the package.json of ${name} to have "saccade": {"tools": ["<export>", …], "close"?: "<export>"}, it has ${JSON.stringify(field)} (${problems})`);
    }
    return { name, directory, ...parsed.data };
  });
}

/** A value that is a spec tool (what a package's saccade.tools exports must be). */
export function isTool(value: unknown): value is Tool {
  const tool = value as Partial<Tool> | undefined;
  return typeof tool === 'object' && tool !== null && tool.specificationVersion === 'v1' && typeof tool.name === 'string' && typeof tool.execute === 'function';
}

/**
 * Registers the tools of the runner's dependencies that declare tools in their package.json (zoom,
 * point crop, rotate, calculator, geometry, detect, ocr, and any package made with
 * `nx g @saccade/plugin:tool`) and of the plug-ins loaded (`loadPlugins`), so that `getTool(name)` and a `ToolUseWrapper` given names find
 * them. The packages are imported here, not at start-up: OCR loads onnxruntime and the calculator a
 * math library, which commands that use no tool should not wait for.
 */
export async function registerBuiltinTools(options: ToolOptions = {}): Promise<{ tools: Tool[]; close: () => Promise<void>; warm: () => Promise<void> }> {
  // The plug-ins loaded (--plugin, plugins:, SACCADE_PLUGINS) after the runner's own, so that theirs win a name both have.
  const packages = [...findToolPackages(runnerManifestPath()), ...(await pluginToolPackages())];
  return registerToolPackages(packages, options);
}

/**
 * Registers, with their factories, the tools an env package needs (its package.json's
 * `saccade.usesTools`: the grounded envs crop with `search_coordinate`, made per task through the
 * registry's `createTool`), importing only the tool packages whose `saccade.create` makes one of
 * them, with `options` by tool name (a run's `toolOptions`). A name no package makes is left out:
 * the env says so when it is made.
 */
export async function registerToolsNamed(names: readonly string[], options: ToolOptions = {}): Promise<void> {
  if (names.length === 0) return;
  const packages = [...findToolPackages(runnerManifestPath()), ...(await pluginToolPackages())].filter((found) => names.some((name) => found.create?.[name] !== undefined));
  await registerToolPackages(packages, options);
}

async function registerToolPackages(packages: readonly ToolPackage[], options: ToolOptions): Promise<{ tools: Tool[]; close: () => Promise<void>; warm: () => Promise<void> }> {
  const configurable = packages.flatMap((found) => Object.keys(found.create ?? {})).sort();
  for (const name of Object.keys(options)) {
    if (!configurable.includes(name)) throw new Error(`--tool-options: expected settings for a tool that takes them (${configurable.join(', ') || 'none'}), received settings for ${name}`);
  }
  const modules = await Promise.all(packages.map(async (found) => ({ found, module: (await import(found.entry === undefined ? found.name : pathToFileURL(found.entry).href)) as Record<string, unknown> })));
  const tools: Tool[] = [];
  const factories = new Map<Tool, (settings: Record<string, unknown>) => Tool>();
  const closers: Array<() => unknown> = [];
  const warmers: Array<() => unknown> = [];
  for (const { found, module } of modules) {
    for (const exportName of found.tools) {
      let tool = module[exportName];
      if (!isTool(tool)) throw new Error(`expected ${found.name} to export a tool named ${exportName} (its package.json lists it in saccade.tools), received ${tool === undefined ? 'no such export' : typeof tool}`);
      const settings = options[tool.name];
      const factoryName = found.create?.[tool.name];
      if (factoryName !== undefined) {
        const factory = module[factoryName];
        if (typeof factory !== 'function') throw new Error(`expected ${found.name} to export a function named ${factoryName} (saccade.create.${tool.name}), received ${typeof factory}`);
        const toolName = tool.name;
        // The registry's factory (createTool: an env's settings per task) starts from --tool-options.
        const create = (envSettings: Record<string, unknown>) => checkMade((factory as (settings: Record<string, unknown>) => unknown)({ ...settings, ...envSettings, name: toolName }), found.name, factoryName);
        if (settings === undefined) {
          factories.set(tool, create);
          tools.push(tool);
          continue;
        }
        try {
          tool = (factory as (settings: Record<string, unknown>) => unknown)({ ...settings, name: toolName });
        } catch (error) {
          throw new Error(`--tool-options: ${toolName}: ${(error as Error).message}`, { cause: error });
        }
        if (!isTool(tool)) throw new Error(`expected ${found.name}'s ${factoryName} to return a tool, received ${typeof tool}`);
        factories.set(tool, create);
      }
      tools.push(tool);
    }
    if (found.warm !== undefined) {
      const warm = module[found.warm];
      if (typeof warm !== 'function') throw new Error(`expected ${found.name} to export a function named ${found.warm} (saccade.warm), received ${typeof warm}`);
      warmers.push(warm as () => unknown);
    }
    if (found.close !== undefined) {
      const close = module[found.close];
      if (typeof close !== 'function') throw new Error(`expected ${found.name} to export a function named ${found.close} (saccade.close), received ${typeof close}`);
      closers.push(close as () => unknown);
    }
  }
  for (const tool of tools) {
    const create = factories.get(tool);
    registerTool(tool, create === undefined ? { override: true } : { override: true, create });
  }
  // OCR keeps its ONNX sessions open between calls; closing them lets the process exit.
  return { tools, close: async () => void (await Promise.all(closers.map((close) => close()))), warm: async () => void (await Promise.all(warmers.map((warm) => warm()))) };
}

function checkMade(made: unknown, packageName: string, factoryName: string): Tool {
  if (!isTool(made)) throw new Error(`expected ${packageName}'s ${factoryName} to return a tool, received ${typeof made}`);
  return made;
}
