// Every declaration a workspace package exports from its entry is documented: users read the
// contracts from the editor's hover, and a new export without a comment fails here. The packages
// are the ones pnpm-workspace.yaml names that have a `src/index.ts` and are not private, found on
// disk so that a new package is checked without an edit here.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { workspaceFolders } from './package-layers';
import { packageEntries, undocumentedExports } from './undocumented-exports';

const root = resolve(import.meta.dirname, '..', '..', '..');
const documented = workspaceFolders(root)
  .filter((folder) => existsSync(join(root, folder, 'src', 'index.ts')))
  .filter((folder) => (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { private?: boolean }).private !== true)
  .map((folder) => join(root, folder));

test('checks every public package with an entry, apps included', () => {
  const names = documented.map((dir) => dir.slice(root.length + 1));
  for (const folder of ['packages/spec', 'packages/image', 'packages/models', 'packages/trainers', 'packages/envs/grid', 'packages/tools/zoom', 'apps/tui', 'apps/runner']) {
    expect(names).toContain(folder);
  }
});

test('every export of every workspace package has a TSDoc comment', () => {
  const missing = [...undocumentedExports(documented)].flatMap(([dir, exports]) => exports.map(({ name, file }) => `${dir.slice(root.length + 1)}: ${name} (${file})`));
  expect(missing).toEqual([]);
});

test('finds an export without a comment, and reads comments on functions, types and constants', () => {
  const fixture = join(import.meta.dirname, '..', 'test', 'undocumented');
  expect(undocumentedExports([fixture]).get(fixture)).toEqual([
    { name: 'bare', file: 'src/values.ts' },
    { name: 'Bare', file: 'src/values.ts' },
  ]);
});

test('reads every public entry of a package: the main one and subpaths such as ./testing', () => {
  const core = join(root, 'packages', 'core');
  expect(packageEntries(core)).toEqual([join(core, 'src', 'index.ts'), join(core, 'src', 'testing.ts')]);
  expect(packageEntries(join(import.meta.dirname, '..', 'test', 'undocumented'))).toEqual([join(import.meta.dirname, '..', 'test', 'undocumented', 'src', 'index.ts')]);
});
