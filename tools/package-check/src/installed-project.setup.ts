// vitest global setup: packs and installs Saccade once for every test file of this package.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAndInstall } from './installed-project';

export default function setup(project: TestProject): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'saccade-pack-'));
  project.provide('installedProject', packAndInstall(resolve(import.meta.dirname, '..', '..', '..'), scratch));
  return () => rmSync(scratch, { recursive: true, force: true });
}
