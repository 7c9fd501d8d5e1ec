// vitest global setup: packs and installs Saccade once for every test file of this package.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAndInstall } from './installed-project';

const SHARED_MEMORY = '/dev/shm';
const PREFIX = 'saccade-pack-';

/**
 * Where the installed project goes: a memory file system where Linux has a roomy one that may run
 * programs (the install holds native addons), else the temporary folder. The install is about
 * 25 000 files and 1 GB: on disk, writing them and removing them again took as long as the checks.
 */
function scratchParent(): string {
  if (process.platform !== 'linux' || !existsSync('/proc/mounts')) return tmpdir();
  const mount = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .findLast(([, point]) => point === SHARED_MEMORY);
  if (mount?.[2] !== 'tmpfs' || mount[3]?.split(',').includes('noexec')) return tmpdir();
  try {
    const { bavail, bsize } = statfsSync(SHARED_MEMORY);
    return bavail * bsize >= 4 * 1024 ** 3 ? SHARED_MEMORY : tmpdir();
  } catch {
    return tmpdir();
  }
}

/** Whether the process `pid` still runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default function setup(project: TestProject): () => void {
  const parent = scratchParent();
  // A run that ended without its teardown (killed) left its install in memory: removed here.
  if (parent === SHARED_MEMORY) {
    for (const entry of readdirSync(parent)) {
      const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(entry)?.[1];
      if (owner !== undefined && !running(Number(owner))) rmSync(join(parent, entry), { recursive: true, force: true });
    }
  }
  const scratch = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  const remove = () => rmSync(scratch, { recursive: true, force: true });
  try {
    project.provide('installedProject', packAndInstall(resolve(import.meta.dirname, '..', '..', '..'), scratch));
  } catch (error) {
    remove();
    throw error;
  }
  return remove;
}
