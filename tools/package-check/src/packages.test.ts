// Every publishable package must stand on its own: `pnpm pack` gives a tarball that passes publint,
// and the tarballs install into an empty Node project where each public entry imports and works.
// A package may ship `test/installed-check.mjs`: it runs inside that project as the "works" check.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, test } from 'vitest';
import { run } from './installed-project';
import { listPublishablePackages } from './workspace-packages';

const root = resolve(import.meta.dirname, '..', '..', '..');
const packages = listPublishablePackages(root);
// Packed and installed by the global setup (src/installed-project.setup.ts).
const { project, tarballs } = inject('installedProject');

describe.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s', (name, pkg) => {
  test('packs and passes publint', async () => {
    const tarball = readFileSync(tarballs[name]!);
    const { messages, pkg: packed } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: 'warning',
    });
    const problems = messages.map((message) => formatMessage(message, packed, { color: false }));
    expect(problems).toEqual([]);
  });

  test('installs alone and its public entry imports', () => {
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
