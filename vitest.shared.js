// Shared vitest settings: every package's vitest.config.ts re-exports this. The JSON report lets
// `npm test` print one closing "N passed, N failed" line over the whole workspace; the global
// setup gives each run a temporary folder of its own, removed at the end.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';

// Workspace packages resolve to their sources (the "@saccade/source" export condition, as TanStack
// does), so a change in one package's src is seen by its dependents' tests without a build. It is a
// resolve hook rather than resolve.conditions: vitest hands those to Node as --conditions, and then
// plain Node in worker threads (models' data-parallel workers) would load .ts files. Examples, the
// CLI, worker threads and published packages use dist.
const SOURCE_CONDITION = '@saccade/source';
const root = fileURLToPath(new URL('.', import.meta.url));

/** `@saccade/name[/subpath]` → its source file, from each workspace package's exports map. */
function workspaceSources() {
  const sources = new Map();
  const folders = ['packages', 'packages/envs', 'packages/tools', 'apps'].flatMap((parent) => {
    const path = join(root, parent);
    return existsSync(path) ? readdirSync(path).map((name) => join(path, name)) : [];
  });
  for (const folder of folders) {
    const file = join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const { name, exports } = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof exports !== 'object' || exports === null) continue;
    for (const [subpath, target] of Object.entries(exports)) {
      const source = typeof target === 'object' && target !== null ? target[SOURCE_CONDITION] : undefined;
      if (typeof source === 'string') sources.set(subpath === '.' ? name : `${name}/${subpath.slice(2)}`, join(folder, source));
    }
  }
  return sources;
}

function workspaceSourcePlugin() {
  const sources = workspaceSources();
  return {
    name: 'saccade-workspace-source',
    enforce: 'pre',
    resolveId(id) {
      return sources.get(id) ?? null;
    },
  };
}

const shared = defineConfig({
  plugins: [workspaceSourcePlugin()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/results.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: [fileURLToPath(new URL('./tools/scripts/test-temp-folder.mjs', import.meta.url))],
  },
});

export default shared;

/**
 * The shared config with a package's tests split into vitest projects: `projects(include)` gets
 * the shared test files pattern and returns the projects (`extends: true` each), which name their
 * own files — a project's `include` would add to the shared one, not replace it.
 */
export function withTestProjects(projects) {
  const { include, ...test } = shared.test ?? {};
  return mergeConfig({ ...shared, test }, defineConfig({ test: { projects: projects(include) } }));
}
