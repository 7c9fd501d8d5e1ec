#!/usr/bin/env node
// Compiles Saccade's AssemblyScript kernels (assembly/*.ts) to wasm with SIMD into dist/, with
// AssemblyScript's `asc` from the npm registry. Runs after tsup (whose `clean` empties dist/) in
// `pnpm build`; the tests' global setup runs it when the file is missing or older than its source.
// The module imports the tfjs wasm backend's memory, so it must not carry data segments, globals
// in memory or a start function: stub runtime, no asserts, no abort import.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const kernels = [{ source: 'assembly/simd-kernels.ts', output: 'dist/simd-kernels.wasm' }];

export async function buildWasm({ onlyIfStale = false } = {}) {
  for (const { source, output } of kernels) {
    const target = join(root, output);
    if (onlyIfStale) {
      const [from, to] = await Promise.all([stat(join(root, source)), stat(target).catch(() => undefined)]);
      if (to && to.mtimeMs >= from.mtimeMs) continue;
    }
    await mkdir(dirname(target), { recursive: true });
    const { error, stderr } = await asc.main(
      [
        join(root, source),
        '--outFile', target,
        '--enable', 'simd',
        '--optimizeLevel', '3',
        '--shrinkLevel', '0',
        '--runtime', 'stub',
        '--importMemory',
        '--noAssert',
        '--use', 'abort=',
      ],
      {},
    );
    if (error) throw new Error(`asc failed on ${source}: ${error.message}\n${stderr.toString()}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWasm();
}
