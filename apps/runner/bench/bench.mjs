#!/usr/bin/env node
// `saccade bench rl`: VAGEN's table on two cores. From one start (a format-only start: SFT on a
// random agent's valid actions; a grounded start: the same actions after the env's true
// <observation>, in VAGEN's grounding format, so the start sees but has no policy; or a weak SFT
// start: the oracle's demonstrations for a few steps),
// each algorithm trains for the same minutes on the same training seeds, and the held-out success
// (200 unseen seeds, greedy, the same for all) is read off its run's metrics at 0 / 5 / 10 / 15
// minutes. Every run is a real `saccade train` (one start run, then `--resume` of a copy of it per
// algorithm), so its run folder keeps the curves, plots and checkpoints. Prints one JSON object.
//
//   node apps/runner/bench/bench.mjs --env saccade/FrozenLake-v1 --start format --minutes 15 --algorithm grpo,ppo-bilevel
//
// Options:
//   --recipe <name>        start from a shipped recipe's config (apps/runner/recipes/<name>.yaml): its env, model, tools and phases
//   --config <file>        start from a run config file (e.g. apps/runner/examples/train-sokoban.yaml); with --recipe, merged over it
//   --env <id>             env to train on (default saccade/FrozenLake-v1, the default run's options)
//   --env-options <json>   its options (default: the default run's for FrozenLake, none otherwise)
//   --max-turns <n>        turn cap (default 10)
//   --start format|grounded|sft  the start (default format); grounded plays FrozenLake in the grounding format with
//                          VAGEN's visual reasoning reward (its own --env-options otherwise, with format grounding)
//   --start-steps <n>      SFT steps of the start (default: format 100, grounded 200, sft 110: 65.5 % on FrozenLake since SFT reads one map per example)
//   --max-tokens <n>       tokens a response may take, in every phase (default: 48, grounded 384: its observation is ~230 characters)
//   --minutes <n>          minutes of RL per algorithm (default 15)
//   --algorithm <list>     grpo, grpo-dr (Dr. GRPO), grpo-shuffled (scores shuffled within groups: the null control), grpo-dynamic (DAPO's dynamic sampling, 3 batches at most), gigpo (GiGPO's step groups), ppo-masked (token-level GAE), ppo-bilevel (default: all but grpo-dynamic, gigpo and grpo-shuffled)
//   --set <json>           config overrides merged into every algorithm's phase, e.g. '{"grpo":{"learningRate":3e-4}}'
//   --eval-every <n>       RL steps between evaluations (default 10)
//   --eval-sampling <json> a sampled evaluation beside each greedy one, start included (the run config's evalSampling),
//                          e.g. '{"temperature":0.7,"samples":4}': adds sampledSuccess (mean@n) to the curve and the results
//   --out <folder>         where the runs go (default runs/bench-rl)
//   --reuse-start          keep the start run already in --out when its config is the same (the start is deterministic)
//   --quick                a smoke run: 8 held-out seeds, 4 SFT steps, 0.3 minutes
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const cli = join(root, 'apps', 'runner', 'dist', 'cli.js');

function parseArguments(argv) {
  const options = {};
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index];
    if (!name.startsWith('--')) throw new Error(`expected an option (--name), got "${name}"`);
    const key = name.slice(2);
    if (key === 'quick' || key === 'reuse-start') options[key] = true;
    else {
      const value = argv[++index];
      if (value === undefined) throw new Error(`${name} needs a value`);
      options[key] = value;
    }
  }
  return options;
}

const ALGORITHMS = {
  // Plain GRPO: the episode's advantage only (the run config's default estimator is GiGPO).
  grpo: { algorithm: 'grpo', grpo: { advantageEstimator: 'grpo' } },
  'grpo-dr': { algorithm: 'grpo', grpo: { advantageEstimator: 'grpo', normalizeStd: false, aggregation: 'token-sum-norm' } },
  // The null control: GRPO's update with each group's scores shuffled (noise without signal).
  'grpo-shuffled': { algorithm: 'grpo', grpo: { advantageEstimator: 'grpo', shuffleScores: true } },
  // DAPO's dynamic sampling: up to 3 batches a step until 16 groups vary.
  'grpo-dynamic': { algorithm: 'grpo', grpo: { advantageEstimator: 'grpo', maxSampledBatches: 3 } },
  // GiGPO (verl-agent): GRPO's episode advantage plus each turn's among the group's turns on the same state.
  gigpo: { algorithm: 'grpo', grpo: { advantageEstimator: 'gigpo' } },
  'ppo-masked': { algorithm: 'ppo', ppo: { advantageEstimator: 'masked' } },
  'ppo-bilevel': { algorithm: 'ppo', ppo: { advantageEstimator: 'bi-level' } },
};

function merge(base, extra) {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra ?? {})) {
    out[key] = value !== null && typeof value === 'object' && !Array.isArray(value) && typeof out[key] === 'object' ? merge(out[key], value) : value;
  }
  return out;
}

function train(args, label) {
  const started = Date.now();
  process.stderr.write(`bench rl: ${label}: saccade train ${args.join(' ')}\n`);
  const run = spawnSync(process.execPath, [cli, 'train', ...args, '--plain'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CI: '1' } });
  if (run.status !== 0) throw new Error(`${label}: saccade train exited with ${run.status ?? run.signal}`);
  return (Date.now() - started) / 1000;
}

function metrics(folder) {
  return readFileSync(join(folder, 'metrics.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line));
}

function commit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

const options = parseArguments(process.argv.slice(2));
// Read when the bench starts: a commit made while it runs is not what it measured.
const startCommit = commit();
if (!existsSync(cli)) throw new Error(`${cli} does not exist: build the runner first (npm run setup)`);
// A recipe, a config file, or a config file over a recipe (`--recipe visual-search --config
// apps/runner/examples/visual-search-lookalikes.yaml`), merged as `saccade train` merges them.
const readYaml = (file) => parse(readFileSync(file, 'utf8')) ?? {};
const recipe = merge(
  options.recipe === undefined ? {} : readYaml(join(root, 'apps', 'runner', 'recipes', `${options.recipe}.yaml`)),
  options.config === undefined ? {} : readYaml(resolve(options.config)),
);
const envId = options.env ?? recipe.env?.id ?? 'saccade/FrozenLake-v1';
const start = options.start ?? 'format';
if (!['format', 'grounded', 'sft'].includes(start)) throw new Error(`--start expected format, grounded or sft, got ${start}`);
const quick = options.quick === true;
const minutes = Number(options.minutes ?? (quick ? 0.3 : 15));
const startSteps = Number(options['start-steps'] ?? (quick ? 4 : { format: 100, grounded: 200, sft: 110 }[start]));
const maxTokens = options['max-tokens'] !== undefined ? Number(options['max-tokens']) : start === 'grounded' ? 384 : undefined;
if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) throw new Error(`--max-tokens expected a positive integer, got ${options['max-tokens']}`);
// The grounded start's FrozenLake: the default run's options in VAGEN's grounding format, each turn's observation judged.
const GROUNDED_FROZEN_LAKE = { format: 'grounding', observation: 'vision', maxActionsPerTurn: 1, visualReasoningReward: true };
const evalEvery = Number(options['eval-every'] ?? (quick ? 2 : 10));
const names = (options.algorithm ?? Object.keys(ALGORITHMS).filter((name) => !['grpo-dynamic', 'gigpo', 'grpo-shuffled'].includes(name)).join(',')).split(',').map((name) => name.trim());
for (const name of names) if (!ALGORITHMS[name]) throw new Error(`--algorithm: unknown "${name}"; expected ${Object.keys(ALGORITHMS).join(', ')}`);
const evalSampling = options['eval-sampling'] === undefined ? undefined : JSON.parse(options['eval-sampling']);
const tokenOverrides = maxTokens === undefined ? {} : { grpo: { maxTokens }, ppo: { maxTokens } };
const overrides = merge(merge(tokenOverrides, options.set === undefined ? {} : JSON.parse(options.set)), evalSampling ? { evalSampling } : {});
const out = resolve(options.out ?? join(root, 'runs', 'bench-rl'));
const tag = `${options.config !== undefined ? basename(options.config).replace(/\.ya?ml$/, '') : (options.recipe ?? envId.replace(/[^\w.-]+/g, '-'))}-${start}`;
mkdirSync(out, { recursive: true });

// The start: SFT only (algorithm sft), on the oracle's or a random agent's demonstrations.
const startConfig = merge(recipe, {
  name: `${tag}-start`,
  outputFolder: out,
  env: {
    id: envId,
    ...(options['env-options']
      ? { options: JSON.parse(options['env-options']) }
      : start === 'grounded' && envId === 'saccade/FrozenLake-v1'
        ? { options: GROUNDED_FROZEN_LAKE }
        : envId === 'saccade/FrozenLake-v1' || recipe.env
          ? {}
          : { options: {} }),
    ...(options['max-turns'] ? { maxTurns: Number(options['max-turns']) } : {}),
  },
  // The same 200 held-out seeds for every start and algorithm (8 for a smoke run).
  seeds: quick ? { eval: { start: 0, count: 8 }, train: { start: 10000, count: 200 } } : { eval: { start: 0, count: 200 } },
  algorithm: 'sft',
  sft: {
    steps: startSteps,
    evalEvery: startSteps,
    demonstrator: { format: 'random', grounded: 'random-grounded', sft: 'oracle' }[start],
    timeLimitSeconds: 3600,
    ...(maxTokens === undefined ? {} : { maxTokens }),
  },
  ...(evalSampling ? { evalSampling } : {}),
});
const startFolder = join(out, startConfig.name);
const configPath = join(out, `${startConfig.name}.yaml`);
const reuse = options['reuse-start'] === true && existsSync(configPath) && readFileSync(configPath, 'utf8') === stringify(startConfig) && existsSync(join(startFolder, 'summary.json'));
let startSeconds = 0;
if (!reuse) {
  rmSync(startFolder, { recursive: true, force: true });
  writeFileSync(configPath, stringify(startConfig));
  startSeconds = train(['--config', configPath], 'start');
}
const startRows = metrics(startFolder).filter((row) => row.kind === 'eval');
const startEval = startRows.at(-1);
if (!startEval) throw new Error('the start run wrote no evaluation');

const results = {};
for (const name of names) {
  const folder = join(out, `${tag}-${name}`);
  rmSync(folder, { recursive: true, force: true });
  cpSync(startFolder, folder, { recursive: true });
  const config = parse(readFileSync(join(folder, 'config.yaml'), 'utf8'));
  const phase = ALGORITHMS[name];
  const key = phase.algorithm;
  const resolved = merge(merge({ ...config, name: `${tag}-${name}`, algorithm: key }, { [key]: { ...phase[key], steps: 100000, evalEvery, timeLimitSeconds: minutes * 60 } }), overrides);
  writeFileSync(join(folder, 'config.yaml'), stringify(resolved));
  const seconds = train(['--resume', folder], name);
  const rows = metrics(folder).filter((row) => row.kind === 'eval' && row.step > startEval.step);
  // With --eval-sampling each point has the sampled evaluation's mean@n beside the greedy success.
  const sampled = (row) => (typeof row.sampledSuccess === 'number' ? { sampledSuccess: row.sampledSuccess } : {});
  const curve = [{ minutes: 0, step: startEval.step, success: startEval.success, ...sampled(startEval) }, ...rows.map((row) => ({ minutes: Number(((row.seconds ?? 0) / 60).toFixed(2)), step: row.step, success: row.success, ...sampled(row) }))];
  const sampledCurve = curve.flatMap((point) => (point.sampledSuccess === undefined ? [] : [point.sampledSuccess]));
  const at = (mark) => curve.filter((point) => point.minutes <= mark + 1e-9).at(-1)?.success ?? null;
  const updates = metrics(folder).filter((row) => row.kind === 'train' && row.step > startEval.step);
  const gaps = updates.map((row) => row.logprobGap).filter((value) => typeof value === 'number');
  results[name] = {
    startSuccess: startEval.success,
    bestSuccess: Math.max(...curve.map((point) => point.success)),
    finalSuccess: curve.at(-1).success,
    ...(sampledCurve.length > 0 ? { bestSampledSuccess: Math.max(...sampledCurve), finalSampledSuccess: sampledCurve.at(-1) } : {}),
    successAtMinutes: Object.fromEntries([0, 5, 10, 15].filter((mark) => mark <= minutes).map((mark) => [mark, at(mark)])),
    steps: (curve.at(-1).step ?? startEval.step) - startEval.step,
    maxLogprobGap: gaps.length > 0 ? Math.max(...gaps) : null,
    wallSeconds: Number(seconds.toFixed(1)),
    runFolder: folder,
    curve,
  };
}

process.stdout.write(
  `${JSON.stringify(
    {
      bench: 'rl',
      commit: startCommit,
      env: envId,
      recipe: options.recipe ?? null,
      config: options.config ?? null,
      start,
      startSteps,
      startSuccess: startEval.success,
      ...(typeof startEval.sampledSuccess === 'number' ? { startSampledSuccess: startEval.sampledSuccess, evalSampling } : {}),
      startSeconds: Number(startSeconds.toFixed(1)),
      heldOutSeeds: quick ? 8 : 200,
      minutes,
      algorithms: results,
    },
    null,
    2,
  )}\n`,
);
