import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkspacePackage {
  name: string;
  dir: string;
  manifest: Record<string, unknown>;
}

/** The folders that hold publishable packages, as listed in pnpm-workspace.yaml. */
const packageFolders = ['packages', 'packages/envs', 'packages/tools', 'apps'];

/** Every non-private workspace package, found on disk so that a new package is checked without edits here. */
export function listPublishablePackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const folder of packageFolders) {
    const base = join(root, folder);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(base, entry.name);
      const manifestPath = join(dir, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      if (manifest.private === true) continue;
      found.push({ name: String(manifest.name), dir, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
