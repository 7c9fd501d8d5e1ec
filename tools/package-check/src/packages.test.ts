// Every publishable package must stand on its own: `pnpm pack` gives a tarball that passes publint,
// and the tarballs install into an empty Node project where each public entry imports and works.
// A package may ship `test/installed-check.mjs`: it runs inside that project as the "works" check.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listPublishablePackages } from './workspace-packages';

const root = resolve(import.meta.dirname, '..', '..', '..');
const packages = listPublishablePackages(root);
const scratch = mkdtempSync(join(tmpdir(), 'saccade-pack-'));
const tarballs = new Map<string, string>();

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_loglevel: 'error' },
  });
}

beforeAll(() => {
  const packDir = join(scratch, 'tarballs');
  for (const pkg of packages) {
    const before = new Set(existsSync(packDir) ? readdirSync(packDir) : []);
    run('pnpm', ['pack', '--pack-destination', packDir], pkg.dir);
    const created = readdirSync(packDir).find((file) => !before.has(file));
    if (!created) throw new Error(`pnpm pack produced no tarball for ${pkg.name}`);
    tarballs.set(pkg.name, join(packDir, created));
  }
  const project = join(scratch, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  // Install scripts are skipped: the optional GPU backend's script downloads libtensorflow,
  // which an offline machine cannot do; the package must work without it.
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...tarballs.values()],
    project,
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s', (name, pkg) => {
  test('packs and passes publint', async () => {
    const tarball = readFileSync(tarballs.get(name)!);
    const { messages, pkg: packed } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: 'warning',
    });
    const problems = messages.map((message) => formatMessage(message, packed, { color: false }));
    expect(problems).toEqual([]);
  });

  test('installs alone and its public entry imports', () => {
    const project = join(scratch, 'project');
    const script = `const m = await import(${JSON.stringify(name)}); console.log(JSON.stringify(Object.keys(m)));`;
    const keys = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script], project)) as string[];
    expect(keys.length).toBeGreaterThan(0);
    const check = join(pkg.dir, 'test', 'installed-check.mjs');
    if (existsSync(check)) {
      const target = join(project, `check-${name.replace(/[@/]/g, '_')}.mjs`);
      copyFileSync(check, target);
      run(process.execPath, [target], project);
    }
  });
});
