#!/usr/bin/env node
// Scaffolds a package with the workspace's standard layout:
//   node tools/scripts/new-package.mjs <folder under the repo> <@saccade/name> "<description>"
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [folder, name, description = ''] = process.argv.slice(2);
if (!folder || !name?.startsWith('@saccade/')) {
  console.error('usage: new-package.mjs <folder> <@saccade/name> "<description>"');
  process.exit(2);
}
const dir = join(root, folder);
if (existsSync(join(dir, 'package.json'))) {
  console.error(`${folder}/package.json exists already`);
  process.exit(1);
}
const up = relative(dir, root) || '.';
mkdirSync(join(dir, 'src'), { recursive: true });
const manifest = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  exports: {
    '.': { types: './dist/index.d.ts', import: './dist/index.js' },
    './package.json': './package.json',
  },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist', 'README.md'],
  engines: { node: '>=20.19' },
  scripts: {
    build: 'tsup',
    typecheck: 'tsc --noEmit',
    test: 'vitest run',
    lint: 'eslint .',
  },
  tsup: {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
  },
  dependencies: {},
};
writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ extends: `${up}/tsconfig.base.json`, include: ['src', 'test'] }, null, 2) + '\n',
);
writeFileSync(join(dir, 'vitest.config.ts'), `export { default } from '${up}/vitest.shared.js';\n`);
writeFileSync(join(dir, 'README.md'), `# ${name}\n\n${description}\n`);
if (!existsSync(join(dir, 'src', 'index.ts'))) writeFileSync(join(dir, 'src', 'index.ts'), 'export {};\n');
console.log(`created ${folder} (${name})`);
