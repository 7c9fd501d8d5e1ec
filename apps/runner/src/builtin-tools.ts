import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { registerTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';

/**
 * What a tool package says about itself in its package.json:
 * `"saccade": {"tools": ["zoomTool", "rotateTool"], "close": "closeOcrEngines"}`: the exports that
 * are tools, and a function that releases what they keep open between calls (optional).
 */
const toolPackageField = z.object({
  tools: z.array(z.string().regex(/^[A-Za-z_$][\w$]*$/, 'expected the name of an export')).min(1),
  close: z.string().regex(/^[A-Za-z_$][\w$]*$/, 'expected the name of an export').optional(),
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
}

/**
 * The packages among the dependencies of a package.json whose own package.json carries a
 * `saccade.tools` field, sorted by name. A dependency that cannot be found is skipped (an optional
 * one that did not install); a malformed field is an Error that names the package.
 */
export function findToolPackages(manifestPath: string): ToolPackage[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const require = createRequire(manifestPath);
  const found: ToolPackage[] = [];
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }).sort()) {
    // Each node_modules folder Node would search from the manifest; no module is loaded.
    const directory = (require.resolve.paths(name) ?? []).map((folder) => join(folder, name)).find((folder) => existsSync(join(folder, 'package.json')));
    if (directory === undefined) continue;
    const field = (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { saccade?: { tools?: unknown } }).saccade;
    if (field?.tools === undefined) continue;
    const parsed = toolPackageField.safeParse(field);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${['saccade', ...issue.path].join('.')}: ${issue.message}`).join('; ');
      throw new Error(`expected the package.json of ${name} to have "saccade": {"tools": ["<export>", …], "close"?: "<export>"}, it has ${JSON.stringify(field)} (${problems})`);
    }
    found.push({ name, directory, ...parsed.data });
  }
  return found;
}

/** The runner's own package.json: its dependencies are the tool packages it offers. */
function runnerManifestPath(): string {
  return createRequire(import.meta.url).resolve('@saccade/runner/package.json');
}

function isTool(value: unknown): value is Tool {
  const tool = value as Partial<Tool> | undefined;
  return typeof tool === 'object' && tool !== null && tool.specificationVersion === 'v1' && typeof tool.name === 'string' && typeof tool.execute === 'function';
}

/**
 * Registers the tools of the runner's dependencies that declare tools in their package.json (zoom,
 * point crop, rotate, calculator, geometry, detect, ocr, and any package made with
 * `nx g @saccade/plugin:tool`), so that `getTool(name)` and a `ToolUseWrapper` given names find
 * them. The packages are imported here, not at start-up: OCR loads onnxruntime and the calculator a
 * math library, which commands that use no tool should not wait for.
 */
export async function registerBuiltinTools(): Promise<{ tools: Tool[]; close: () => Promise<void> }> {
  const packages = findToolPackages(runnerManifestPath());
  const modules = await Promise.all(packages.map(async (found) => ({ found, module: (await import(found.name)) as Record<string, unknown> })));
  const tools: Tool[] = [];
  const closers: Array<() => unknown> = [];
  for (const { found, module } of modules) {
    for (const exportName of found.tools) {
      const tool = module[exportName];
      if (!isTool(tool)) throw new Error(`expected ${found.name} to export a tool named ${exportName} (its package.json lists it in saccade.tools), received ${tool === undefined ? 'no such export' : typeof tool}`);
      tools.push(tool);
    }
    if (found.close !== undefined) {
      const close = module[found.close];
      if (typeof close !== 'function') throw new Error(`expected ${found.name} to export a function named ${found.close} (saccade.close), received ${typeof close}`);
      closers.push(close as () => unknown);
    }
  }
  for (const tool of tools) registerTool(tool, { override: true });
  // OCR keeps its ONNX sessions open between calls; closing them lets the process exit.
  return { tools, close: async () => void (await Promise.all(closers.map((close) => close()))) };
}
