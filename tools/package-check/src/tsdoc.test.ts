// Every declaration the contract, core, tool and env packages export is documented: their users
// read the contracts from the editor's hover, and a new export without a comment fails here.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { undocumentedExports } from './undocumented-exports';

const root = resolve(import.meta.dirname, '..', '..', '..');
const inFolder = (folder: string) =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, folder, entry.name, 'src', 'index.ts')))
    .map((entry) => join(root, folder, entry.name));
const documented = [join(root, 'packages/spec'), join(root, 'packages/core'), ...inFolder('packages/tools'), ...inFolder('packages/envs')];

test('every export of spec, core and the tool and env packages has a TSDoc comment', () => {
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
