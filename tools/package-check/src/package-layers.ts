import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The workspace's layers, bottom up (docs/architecture.md). A package uses packages of lower
 * layers only; plug-ins sit side by side and never use one another.
 */
export const LAYERS = [
  { name: 'base', packages: ['@saccade/spec', '@saccade/tensor'] },
  { name: 'foundations', packages: ['@saccade/core', '@saccade/image', '@saccade/onnx'] },
  { name: 'run folder', packages: ['@saccade/runs'] },
  {
    name: 'plug-ins',
    packages: ['@saccade/env-*', '@saccade/tool-*', '@saccade/agents', '@saccade/agent-transformers', '@saccade/rollout', '@saccade/data', '@saccade/models'],
  },
  { name: 'composition', packages: ['@saccade/trainers', '@saccade/datagen', '@saccade/server'] },
  // Apps compose apps too: the runner shows the TUI and starts the viewer.
  { name: 'apps', packages: ['@saccade/runner', '@saccade/tui', '@saccade/viewer'], siblings: true },
  { name: 'workspace tooling', packages: ['@saccade/package-check', '@saccade/plugin'] },
] as const satisfies readonly { name: string; packages: readonly string[]; siblings?: boolean }[];

/** A dependency the rules forbid, kept while it is being removed: `from → to` with why it is still there. */
export interface AllowedViolation {
  from: string;
  to: string;
  reason: string;
}

/** One workspace package as the check sees it. */
export interface LayerPackage {
  name: string;
  /** The folder, relative to the workspace root. */
  dir: string;
  /** `dependencies`, `peerDependencies` and `optionalDependencies`: what an installed package uses. */
  runtime: string[];
  /** `devDependencies`: what its tests, examples and builds use. */
  dev: string[];
  /** Workspace packages that published source (`src`, not tests or fixtures) imports, with the importing file. */
  sourceImports: { name: string; file: string }[];
  /** The `peerDependencies` that `peerDependenciesMeta` marks optional (loaded when present). */
  optionalPeers?: string[];
  /** `"private": true` in its manifest: workspace tooling that is never published. */
  private?: boolean;
}

/** The layer index of a package name (`@saccade/env-*` matches every env package), or -1. */
export function layerOf(name: string): number {
  return LAYERS.findIndex((layer) =>
    (layer.packages as readonly string[]).some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  );
}

const isEnvOrTool = (name: string) => name.startsWith('@saccade/env-') || name.startsWith('@saccade/tool-');

/**
 * Why a runtime dependency `from → to` breaks the layers, or undefined when it keeps to them (or
 * either package is in no layer, which is reported on its own): it points to a higher layer, to a
 * sibling outside the apps, or from a composition package to an env or tool.
 */
export function runtimeDependencyBreak(from: string, to: string): string | undefined {
  const own = layerOf(from);
  const target = layerOf(to);
  if (own < 0 || target < 0) return undefined;
  const layer = LAYERS[own]!;
  const sibling = target === own && !('siblings' in layer && layer.siblings);
  if (sibling) return `${layer.name} never use one another`;
  if (target > own) return `${LAYERS[target]!.name} is above ${layer.name}`;
  if (layer.name === 'composition' && isEnvOrTool(to)) return `${layer.name} reaches envs and tools through the registries`;
  return undefined;
}

/**
 * Every broken rule, one line each (`a → b (dependencies): why`):
 * - a package is in no layer;
 * - a runtime dependency points to the same layer (outside apps) or a higher one: plug-ins never use
 *   one another, and nothing uses a package above it;
 * - a composition package (trainers, datagen, server) has an env or tool package as a runtime
 *   dependency: they reach envs and tools through the registries, the apps choose which;
 * - a devDependency points to a higher layer. A sibling is allowed there: a plug-in's tests may
 *   play a real env, agent or episode loop;
 * - published source imports a workspace package that is not a runtime dependency (a devDependency
 *   used outside the tests).
 * `allowed` lists violations kept for now; an entry that no longer matches a violation is reported
 * too, so that the list only shrinks.
 */
export function layerViolations(packages: readonly LayerPackage[], allowed: readonly AllowedViolation[]): string[] {
  const found: { from: string; to: string; line: string }[] = [];
  const workspace = new Set(packages.map((pkg) => pkg.name));
  for (const pkg of packages) {
    const own = layerOf(pkg.name);
    if (own < 0) {
      found.push({ from: pkg.name, to: '', line: `${pkg.name} (${pkg.dir}) is in no layer: add it to LAYERS in tools/package-check/src/package-layers.ts` });
      continue;
    }
    const layer = LAYERS[own]!;
    for (const dependency of pkg.runtime.filter((name) => workspace.has(name))) {
      const why = runtimeDependencyBreak(pkg.name, dependency);
      if (why !== undefined) found.push({ from: pkg.name, to: dependency, line: `${pkg.name} → ${dependency} (dependencies): ${why}` });
    }
    for (const dependency of pkg.dev.filter((name) => workspace.has(name))) {
      const target = layerOf(dependency);
      if (target > own) found.push({ from: pkg.name, to: dependency, line: `${pkg.name} → ${dependency} (devDependencies): ${LAYERS[target]!.name} is above ${layer.name}` });
    }
    const declared = new Set([pkg.name, ...pkg.runtime]);
    for (const { name, file } of pkg.sourceImports) {
      if (!declared.has(name)) found.push({ from: pkg.name, to: name, line: `${pkg.name} → ${name} (imported by ${file}): not in its dependencies or peerDependencies` });
    }
  }
  const lines = found
    .filter((violation) => !allowed.some((entry) => entry.from === violation.from && entry.to === violation.to))
    .map((violation) => violation.line);
  for (const entry of allowed) {
    if (!found.some((violation) => violation.from === entry.from && violation.to === entry.to)) {
      lines.push(`${entry.from} → ${entry.to} is allowed but no longer happens: remove it from the allow-list`);
    }
  }
  return lines;
}

/** The package folders `pnpm-workspace.yaml` names (`folder/*` patterns and plain folders). */
export function workspaceFolders(root: string): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(yaml);
  if (!block?.[1]) throw new Error('expected pnpm-workspace.yaml to list its packages under "packages:"; found no such list');
  const patterns = [...block[1].matchAll(/-\s*['"]?([^'"\n#]+?)['"]?\s*(?:#.*)?$/gm)].map((match) => match[1]!);
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  }).filter((folder) => existsSync(join(root, folder, 'package.json')));
}

const testFile = /(\.test\.tsx?$|(^|\/)__fixtures__\/)/;

/** The `@saccade/*` package names a file imports (static, dynamic, type-only, re-exports), subpaths cut off. */
function saccadeImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => /^(@saccade\/[^/]+)/.exec(file.fileName)?.[1])
    .filter((name): name is string => name !== undefined);
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every workspace package: its manifest's dependencies and what its published source imports. */
export function readLayerPackages(root: string): LayerPackage[] {
  return workspaceFolders(root).map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined> & {
      name: string;
      private?: boolean;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const names = (field: string) => Object.keys(manifest[field] ?? {});
    const sourceImports = sourceFiles(join(root, dir, 'src'))
      .map((file) => relative(join(root, dir), file))
      .filter((file) => !testFile.test(file))
      .flatMap((file) => [...new Set(saccadeImports(readFileSync(join(root, dir, file), 'utf8')))].map((name) => ({ name, file })));
    return {
      name: manifest.name,
      dir,
      runtime: [...names('dependencies'), ...names('peerDependencies'), ...names('optionalDependencies')],
      dev: names('devDependencies'),
      sourceImports,
      optionalPeers: Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional === true)
        .map(([name]) => name),
      private: manifest.private === true,
    };
  });
}
