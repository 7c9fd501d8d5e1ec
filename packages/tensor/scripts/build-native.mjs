#!/usr/bin/env node
// Compiles Saccade's native product (native/matmul.cc, an N-API addon) with g++ directly into
// dist/matmul.node: `g++ -O3 -ffp-contract=off -std=c++17 -shared -fPIC -I<node include>`.
// Runs after build-wasm in `pnpm build`. Optional: when g++ or Node's headers are missing, or the
// compile fails, it prints one line saying why and exits 0 — the package works without the addon,
// with the same floats, only slower (see src/kernels/native-matmul.ts).
// No -march: the file is built for baseline x86-64 (or the host's baseline elsewhere) and each
// kernel for its own instruction set, chosen when the addon loads (AVX-512, AVX2 or portable), so
// a built addon runs on any machine of its architecture. -ffp-contract=off keeps the exact mode's
// products and sums apart (no fused multiply-add the wasm route does not do).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The addon's files: matmul.cc (the products and the module's entry point), gelu.cc, attention.cc, and what they share.
const sources = ['matmul.cc', 'gelu.cc', 'attention.cc'].map((file) => join(root, 'native', file));
const headers = ['addon.h', 'simd-math.h', 'attention-kernel.inc'].map((file) => join(root, 'native', file));
const output = join(root, 'dist', 'matmul.node');

/** Directory holding node_api.h, or undefined. */
export function nodeIncludeDir() {
  const candidates = [join(dirname(process.execPath), '..', 'include', 'node')];
  try {
    const nodedir = execFileSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (nodedir && nodedir !== 'undefined' && nodedir !== 'null') candidates.push(join(nodedir, 'include', 'node'));
  } catch {
    // npm missing: only the first candidate.
  }
  return candidates.find((dir) => existsSync(join(dir, 'node_api.h')));
}

/**
 * Builds dist/matmul.node; returns { built: true, path } or { built: false, reason }. Never throws.
 * With onlyIfStale, an addon newer than all its sources is kept.
 */
export function buildNative({ onlyIfStale = false } = {}) {
  if (onlyIfStale && existsSync(output) && [...sources, ...headers].every((file) => statSync(output).mtimeMs >= statSync(file).mtimeMs)) {
    return { built: true, path: output };
  }
  const probe = spawnSync('g++', ['--version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return { built: false, reason: 'g++ not found' };
  const include = nodeIncludeDir();
  if (!include) return { built: false, reason: "Node's headers (node_api.h) not found next to node or under `npm config get nodedir`" };
  mkdirSync(dirname(output), { recursive: true });
  const args = ['-O3', '-ffp-contract=off', '-std=c++17', '-shared', '-fPIC', `-I${include}`, ...sources, '-o', output];
  const result = spawnSync('g++', args, { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    const detail = (result.stderr || result.error?.message || '').split('\n').find((line) => line.includes('error')) ?? `exit ${result.status}`;
    return { built: false, reason: `g++ failed: ${detail.trim()}` };
  }
  return { built: true, path: output };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = buildNative();
  if (!result.built) console.log(`@saccade/tensor: native matmul not built (${result.reason}); the package works without it`);
}
