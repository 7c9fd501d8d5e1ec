// Every publishable package must stand on its own: `pnpm pack` gives a tarball that passes publint,
// and the tarballs install into an empty Node project where each public entry imports and works.
// A package may ship `test/installed-check.mjs`: it runs inside that project as the "works" check.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, inject, test } from 'vitest';
import { runAsync } from './installed-project';
import { listPublishablePackages } from './workspace-packages';

const root = resolve(import.meta.dirname, '..', '..', '..');
const packages = listPublishablePackages(root);
// Packed and installed by the global setup (src/installed-project.setup.ts).
const { project, tarballs } = inject('installedProject');

// The packages are checked side by side (vitest's maxConcurrency at a time): each check waits on a
// Node process of its own, and one after another they took most of this file's time.
describe.concurrent.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s', (name, pkg) => {
  test('packs and passes publint', async ({ expect }) => {
    const tarball = readFileSync(tarballs[name]!);
    const { messages, pkg: packed } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: 'warning',
    });
    const problems = messages.map((message) => formatMessage(message, packed, { color: false }));
    expect(problems).toEqual([]);
  });

  test('installs alone and its public entry imports', async ({ expect }) => {
    // A fresh Node process imports the entry first; the package's own check, if it has one, runs in
    // the same process next (one process start per package rather than two).
    const check = join(pkg.dir, 'test', 'installed-check.mjs');
    const target = join(project, `check-${name.replace(/[@/]/g, '_')}.mjs`);
    if (existsSync(check)) copyFileSync(check, target);
    const script = [
      `const m = await import(${JSON.stringify(name)});`,
      'console.log(JSON.stringify(Object.keys(m)));',
      existsSync(check) ? `await import(${JSON.stringify(pathToFileURL(target).href)});` : '',
    ].join('\n');
    const printed = await runAsync(process.execPath, ['--input-type=module', '-e', script], project);
    const keys = JSON.parse(printed.split('\n')[0]!) as string[];
    expect(keys.length).toBeGreaterThan(0);
  });
});
