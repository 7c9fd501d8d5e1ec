import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

/** Suite name → the package folder whose `bench/bench.mjs` runs it, or the script itself (`….mjs`). */
export const BENCH_SUITES: Readonly<Record<string, string>> = {
  // The built-in model's SFT step and generation throughput (with --torch, against PyTorch); the
  // script lives in trainers, whose SFT loss it trains with.
  models: 'packages/trainers',
  tensor: 'packages/tensor',
  rollout: 'packages/rollout',
  image: 'packages/image',
  'env-grid': 'packages/envs/grid',
  'tools-zoom': 'packages/tools/zoom',
  'tools-ocr': 'packages/tools/ocr',
  // Reinforcement learning on two cores: start × algorithm → held-out success over minutes.
  rl: 'apps/runner',
  // What storing a training run's episodes (episodeStore) costs a GRPO step, and their bytes.
  'episode-store': 'apps/runner/bench/episode-store.mjs',
};

/** The script a suite runs. */
function suiteScript(root: string, name: string): string {
  const entry = BENCH_SUITES[name]!;
  return entry.endsWith('.mjs') ? join(root, entry) : join(root, entry, 'bench', 'bench.mjs');
}

export interface BenchCommandSettings {
  /** The repository root (default: found above the working directory, then above this file). */
  root?: string;
}

/** The Saccade checkout: bench scripts are not published with the packages, so they run from one. */
function findRoot(): string | undefined {
  for (const start of [process.cwd(), dirname(fileURLToPath(import.meta.url))]) {
    for (let folder = resolve(start); ; folder = dirname(folder)) {
      if (existsSync(join(folder, 'pnpm-workspace.yaml')) && existsSync(join(folder, 'packages'))) return folder;
      if (dirname(folder) === folder) break;
    }
  }
  return undefined;
}

/** `saccade bench [suite…]`: runs packages' `bench/bench.mjs` (each prints one JSON object) and passes it on or summarises it. */
export function benchCommand(output: Output, setExitCode: (code: number) => void, settings: BenchCommandSettings = {}): Command {
  return new Command('bench')
    .description(`run a package's benchmark (bench/bench.mjs, after a build): ${Object.keys(BENCH_SUITES).join(', ')}; none given lists them`)
    .argument('[suites...]', 'suite names')
    .option('--json', 'print the suites\' JSON: an object keyed by suite')
    .option('--all', 'run every suite')
    .option('--args <arguments>', "arguments for the bench scripts, space-separated, e.g. --args='--quick'")
    .action(async (suites: string[], flags: { json?: boolean; all?: boolean; args?: string }) => {
      const extra = flags.args === undefined ? [] : flags.args.split(/\s+/).filter((argument) => argument.length > 0);
      const names = flags.all ? Object.keys(BENCH_SUITES) : suites;
      if (names.length === 0) {
        for (const [name, entry] of Object.entries(BENCH_SUITES)) output.log(`${name.padEnd(13)} ${entry.endsWith('.mjs') ? entry : `${entry}/bench/bench.mjs`}`);
        setExitCode(EXIT_SUCCESS);
        return;
      }
      const unknown = names.filter((name) => BENCH_SUITES[name] === undefined);
      if (unknown.length > 0) {
        output.error(`unknown bench suite ${unknown.map((name) => `"${name}"`).join(', ')}; expected one of ${Object.keys(BENCH_SUITES).join(', ')}`);
        setExitCode(EXIT_USAGE);
        return;
      }
      const root = settings.root ?? findRoot();
      if (root === undefined) {
        output.error('saccade bench runs the bench scripts of a Saccade checkout (they are not published): run it inside the repository');
        setExitCode(EXIT_USAGE);
        return;
      }
      const results: Record<string, unknown> = {};
      let failed = false;
      for (const name of names) {
        const script = suiteScript(root, name);
        if (!existsSync(script)) {
          output.error(`${name}: ${script} does not exist`);
          failed = true;
          continue;
        }
        if (!flags.json) output.log(`${name}: node ${script}${extra.length > 0 ? ` ${extra.join(' ')}` : ''}`);
        const run = await runScript(script, extra, (text) => output.error(text.trimEnd()));
        const parsed = parseBenchOutput(run.stdout);
        if (run.code !== 0 || parsed === undefined) {
          output.error(`${name}: ${run.code !== 0 ? `exited with code ${run.code}` : 'printed no JSON object'}${run.stdout.trim().length > 0 ? `\n${run.stdout.trim().slice(-2000)}` : ''}`);
          failed = true;
          continue;
        }
        results[name] = parsed;
        if (!flags.json) for (const line of summarise(parsed)) output.log(`  ${line}`);
      }
      if (flags.json) output.log(JSON.stringify(names.length === 1 && !flags.all ? (results[names[0]!] ?? null) : results, null, 2));
      setExitCode(failed ? EXIT_FAILURE : EXIT_SUCCESS);
    });
}

function runScript(script: string, args: string[], onStderr: (text: string) => void): Promise<{ code: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    // Run from the package folder, as `pnpm bench` does: scripts import ../dist relative to themselves.
    const child = spawn(process.execPath, [script, ...args], { cwd: dirname(dirname(script)), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', onStderr);
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 : 1), stdout }));
  });
}

/** The script's JSON object: the whole stdout, or the last `{`-started block when it printed lines before it. */
export function parseBenchOutput(stdout: string): Record<string, unknown> | undefined {
  const attempt = (text: string): Record<string, unknown> | undefined => {
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const whole = attempt(stdout);
  if (whole !== undefined) return whole;
  const lines = stdout.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    if (lines[index]!.startsWith('{')) {
      const found = attempt(lines.slice(index).join('\n'));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `key: value` lines for the numbers, booleans and short strings of a result (nested keys dotted), at most 40. */
export function summarise(result: Record<string, unknown>, prefix = ''): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    const name = `${prefix}${key}`;
    if (typeof value === 'number') lines.push(`${name}: ${Number.isInteger(value) ? value : Number(value.toPrecision(4))}`);
    else if (typeof value === 'boolean' || (typeof value === 'string' && value.length <= 60)) lines.push(`${name}: ${String(value)}`);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) lines.push(...summarise(value as Record<string, unknown>, `${name}.`));
    if (lines.length >= 40) break;
  }
  return lines.slice(0, 40);
}
