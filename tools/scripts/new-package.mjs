#!/usr/bin/env node
// Scaffolds a package with the workspace's standard layout:
//   node tools/scripts/new-package.mjs <folder under the repo> <@saccade/name> "<description>"
// The files come from the template the nx generators share (tools/plugin/src/package-files.js).
// For a tool package use the generator, which adds the tool, its tests and its registration:
//   pnpm nx g @saccade/plugin:tool <name>
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeFolder, packageFiles } from '../plugin/src/package-files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [folderArgument, name, description = ''] = process.argv.slice(2);
if (!folderArgument || !name?.startsWith('@saccade/')) {
  console.error('usage: new-package.mjs <folder> <@saccade/name> "<description>"');
  process.exit(2);
}
let folder;
try {
  folder = normalizeFolder(folderArgument);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
if (existsSync(join(root, folder, 'package.json'))) {
  console.error(`${folder}/package.json exists already`);
  process.exit(1);
}
for (const [path, content] of Object.entries(packageFiles({ folder, name, description }))) {
  const file = join(root, path);
  // A package being re-scaffolded around existing sources keeps them.
  if (path.endsWith('/src/index.ts') && existsSync(file)) continue;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
console.log(`created ${folder} (${name})`);
