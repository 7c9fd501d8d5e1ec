// `npm test` needs Node, npm, and python3 with the client tests' modules (README, docs/getting-started.md).
// On a machine without python3 it stops at once, naming what to install, before installing anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..', '..');

test('npm test on a machine with node but no python3 on PATH stops at once and names what to install', () => {
  const bin = mkdtempSync(join(tmpdir(), 'saccade-only-node-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  const started = performance.now();
  const result = spawnSync(join(bin, 'node'), [join(root, 'tools', 'scripts', 'workspace.mjs'), 'test'], { cwd: root, encoding: 'utf8', env: { HOME: process.env.HOME ?? '', PATH: bin } });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    'saccade: npm test needs more than this machine has (nothing was installed or run):\n' +
      '  - python3 on PATH, with httpx, Pillow, FastAPI and uvicorn (the Python client tests): on Debian or Ubuntu `sudo apt-get install -y python3 python3-httpx python3-pil python3-fastapi python3-uvicorn`; elsewhere install Python 3, then `python3 -m pip install httpx pillow fastapi uvicorn`\n',
  );
  // At once: before pnpm, the install or any build.
  expect(performance.now() - started).toBeLessThan(5_000);
});
