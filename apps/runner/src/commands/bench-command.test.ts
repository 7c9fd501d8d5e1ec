import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { benchCommand, parseBenchOutput } from './bench-command';

// A stand-in checkout: the image suite prints a progress line then its JSON (and echoes its arguments); the rollout suite fails.
const root = mkdtempSync(join(tmpdir(), 'saccade-bench-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
mkdirSync(join(root, 'packages', 'image', 'bench'), { recursive: true });
writeFileSync(
  join(root, 'packages', 'image', 'bench', 'bench.mjs'),
  "console.log('warming up');\nconsole.log(JSON.stringify({ bench: 'image', resize: { medianMs: 1.23456 }, withinTarget: true, args: process.argv.slice(2) }, null, 2));\n",
);
mkdirSync(join(root, 'packages', 'rollout', 'bench'), { recursive: true });
writeFileSync(join(root, 'packages', 'rollout', 'bench', 'bench.mjs'), "console.error('boom'); process.exit(3);\n");
mkdirSync(join(root, 'apps', 'runner', 'bench'), { recursive: true });
writeFileSync(join(root, 'apps', 'runner', 'bench', 'episode-store.mjs'), "console.log(JSON.stringify({ bench: 'episode-store', args: process.argv.slice(2) }));\n");

async function bench(args: string[]): Promise<{ exitCode: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const output: Output = { log: (line) => out.push(line), error: (line) => err.push(line) };
  let exitCode = -1;
  const program = new Command('saccade').exitOverride().addCommand(benchCommand(output, (code) => (exitCode = code), { root }));
  await program.parseAsync(['bench', ...args], { from: 'user' });
  return { exitCode, out, err };
}

describe('saccade bench', () => {
  test('--json passes the suite\'s JSON through, with the arguments given', async () => {
    const { exitCode, out } = await bench(['image', '--json', '--args=--quick']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(out.join('\n'))).toEqual({ bench: 'image', resize: { medianMs: 1.23456 }, withinTarget: true, args: ['--quick'] });
  });

  test('without --json: a summary of the numbers', async () => {
    const { exitCode, out } = await bench(['image']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(out.slice(1)).toEqual(['  bench: image', '  resize.medianMs: 1.235', '  withinTarget: true']);
  });

  test('a failing suite is a failure; an unknown one a usage error; none lists them', async () => {
    const failing = await bench(['rollout']);
    expect(failing.exitCode).toBe(EXIT_FAILURE);
    expect(failing.err.join('\n')).toContain('rollout: exited with code 3');
    const unknown = await bench(['warp']);
    expect(unknown.exitCode).toBe(EXIT_USAGE);
    expect(unknown.err.join('\n')).toContain('unknown bench suite "warp"');
    const list = await bench([]);
    expect(list.exitCode).toBe(EXIT_SUCCESS);
    expect(list.out.some((line) => line.startsWith('tools-ocr'))).toBe(true);
  });

  test('a suite named by its script (episode-store) runs that script', async () => {
    const { exitCode, out } = await bench(['episode-store', '--json', '--args=--steps 2']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(out.join('\n'))).toEqual({ bench: 'episode-store', args: ['--steps', '2'] });
    const list = await bench([]);
    expect(list.out).toContain('episode-store apps/runner/bench/episode-store.mjs');
    expect(list.out).toContain('rl            apps/runner/bench/bench.mjs');
  });

  test('parseBenchOutput finds the JSON after other lines', () => {
    expect(parseBenchOutput('a\n{\n  "x": 1\n}\n')).toEqual({ x: 1 });
    expect(parseBenchOutput('no json')).toBeUndefined();
  });
});
