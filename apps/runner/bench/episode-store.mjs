#!/usr/bin/env node
// `saccade bench episode-store`: what storing a training run's episodes (config `episodeStore`)
// costs a GRPO step of the default run. One start (the default run's SFT for --start-steps steps),
// then two resumed copies play the same GRPO steps (steps are deterministic): one stores every
// step's episodes (trainEvery 1, the most a run can store), one stores none. Each step's own
// `recordSeconds` (rollout-end rows: building the records and appending them) is set against the
// step's time in the same run; the bytes a stored step takes give the size of a whole default run
// at the default `trainEvery`. Prints one JSON object.
//
//   node apps/runner/bench/episode-store.mjs [--start-steps 110] [--steps 6] [--out runs/bench-store] [--reuse-start] [--quick]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const cli = join(root, 'apps', 'runner', 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    'start-steps': { type: 'string' },
    steps: { type: 'string' },
    out: { type: 'string' },
    'reuse-start': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const startSteps = Number(values['start-steps'] ?? (quick ? 4 : 110));
const steps = Number(values.steps ?? (quick ? 2 : 6));
const out = resolve(values.out ?? join(root, 'runs', 'bench-store'));
mkdirSync(out, { recursive: true });

function train(args, label) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, 'train', ...args, '--plain'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CI: '1' } });
  if (run.status !== 0) throw new Error(`${label}: saccade train exited with ${run.status}`);
  return (performance.now() - started) / 1000;
}

const rows = (folder) => readFileSync(join(folder, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

function bytesUnder(folder) {
  if (!existsSync(folder)) return 0;
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    bytes += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return bytes;
}

// The start: the default run's SFT, evaluated once at its end (held-out seeds as the default run's).
const startConfig = {
  name: 'store-start',
  outputFolder: out,
  algorithm: 'sft',
  ...(quick ? { seeds: { eval: { start: 0, count: 8 }, train: { start: 10000, count: 200 } } } : {}),
  sft: { steps: startSteps, evalEvery: startSteps, timeLimitSeconds: 3600 },
  episodeStore: { trainEvery: 0, evaluations: false },
};
const startFolder = join(out, startConfig.name);
const configPath = join(out, 'store-start.yaml');
const reuse = values['reuse-start'] && existsSync(configPath) && readFileSync(configPath, 'utf8') === stringify(startConfig) && existsSync(join(startFolder, 'summary.json'));
if (!reuse) {
  rmSync(startFolder, { recursive: true, force: true });
  writeFileSync(configPath, stringify(startConfig));
  train(['--config', configPath], 'start');
}

/** A resumed copy of the start that plays `steps` GRPO steps with the given episode store. */
function phase(name, episodeStore) {
  const folder = join(out, name);
  rmSync(folder, { recursive: true, force: true });
  cpSync(startFolder, folder, { recursive: true });
  const config = parse(readFileSync(join(folder, 'config.yaml'), 'utf8'));
  config.name = name;
  config.algorithm = 'grpo';
  config.grpo = { ...config.grpo, steps, evalEvery: 10_000, timeLimitSeconds: 3600 };
  config.episodeStore = episodeStore;
  writeFileSync(join(folder, 'config.yaml'), stringify(config));
  const seconds = train(['--resume', folder], name);
  const all = rows(folder);
  const updates = all.filter((row) => row.kind === 'train' && row.step > startSteps);
  const rollouts = all.filter((row) => row.kind === 'rollout');
  const stepSeconds = updates.map((row) => row.rolloutSeconds + row.updateSeconds);
  const recordSeconds = rollouts.map((row) => row.recordSeconds ?? 0);
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / Math.max(list.length, 1);
  return {
    folder,
    seconds: Number(seconds.toFixed(1)),
    steps: updates.length,
    stepSeconds: Number(mean(stepSeconds).toFixed(2)),
    recordSeconds: Number(mean(recordSeconds).toFixed(3)),
    /** The store's share of a step: its own time over the step's (rollout + update + store). */
    recordFraction: Number((mean(recordSeconds) / (mean(stepSeconds) + mean(recordSeconds))).toFixed(4)),
    storedEpisodes: existsSync(join(folder, 'trajectories', 'training.jsonl')) ? readFileSync(join(folder, 'trajectories', 'training.jsonl'), 'utf8').trim().split('\n').length : 0,
    storedBytes: bytesUnder(join(folder, 'trajectories')),
  };
}

const stored = phase('store-every-step', { trainEvery: 1, evaluations: false, maxMegabytes: 10_000 });
const unstored = phase('store-none', { trainEvery: 0, evaluations: false });
const bytesPerStep = stored.storedBytes / Math.max(stored.steps, 1);
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
console.log(
  JSON.stringify({
    bench: 'episode-store',
    commit,
    startSteps,
    stored,
    unstored,
    /** The step time with the store against the same steps without it, in this run. */
    stepSecondsRatio: Number(((stored.stepSeconds + stored.recordSeconds) / unstored.stepSeconds).toFixed(4)),
    bytesPerStoredStep: Math.round(bytesPerStep),
    /** A default run's GRPO phase (200 steps) at the default trainEvery (10): 20 stored steps. */
    defaultRunTrainingMegabytes: Number(((bytesPerStep * 20) / 1e6).toFixed(1)),
  }),
);
