import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A dependency whose package.json has a `saccade` field: what it offers the runner (tools, envs). */
export interface SaccadePackage {
  /** Its package name, e.g. `@saccade/tool-zoom`. */
  name: string;
  /** The folder its package.json is in. */
  directory: string;
  /** Its package.json's `saccade` field. */
  field: Record<string, unknown>;
}

/**
 * The dependencies (and optional dependencies) of a package.json whose own package.json has a
 * `saccade.<key>` field, sorted by name. No module is loaded; a dependency that cannot be found is
 * skipped (an optional one that did not install).
 */
export function findSaccadePackages(manifestPath: string, key: string): SaccadePackage[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const require = createRequire(manifestPath);
  const found: SaccadePackage[] = [];
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }).sort()) {
    // Each node_modules folder Node would search from the manifest.
    const directory = (require.resolve.paths(name) ?? []).map((folder) => join(folder, name)).find((folder) => existsSync(join(folder, 'package.json')));
    if (directory === undefined) continue;
    const field = (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { saccade?: unknown }).saccade;
    if (typeof field !== 'object' || field === null || (field as Record<string, unknown>)[key] === undefined) continue;
    found.push({ name, directory, field: field as Record<string, unknown> });
  }
  return found;
}

/** The runner's own package.json: its dependencies are the tool and env packages it offers. */
export function runnerManifestPath(): string {
  return createRequire(import.meta.url).resolve('@saccade/runner/package.json');
}
