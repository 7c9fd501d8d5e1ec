#!/usr/bin/env node
// Held-out curves of finished runs side by side, for comparing two runs of one config (e.g. with
// and without the native products): each evaluation's step and success with its minutes since
// the run started (events.jsonl's run-start: demonstrations included) and since the first
// evaluation (what `plots/success-minutes` draws); whether the runs' successes agree at every
// common step; and when each first reached --threshold. Reads only the run folders.
// Usage: node apps/runner/bench/run-curves.mjs <run folder> [<run folder> …] [--threshold 0.9]
import { readJsonLines, runPaths } from '@saccade/runs';

const args = process.argv.slice(2);
const thresholdIndex = args.indexOf('--threshold');
const threshold = thresholdIndex >= 0 ? Number(args[thresholdIndex + 1]) : 0.9;
if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`--threshold must be a rate in [0, 1]; got ${args[thresholdIndex + 1]}`);
const folders = args.filter((arg, index) => !arg.startsWith('--') && (thresholdIndex < 0 || index !== thresholdIndex + 1));
if (folders.length === 0) throw new Error('Usage: run-curves.mjs <run folder> [<run folder> …] [--threshold 0.9]');

const minutes = (from, to) => Math.round(((Date.parse(to) - Date.parse(from)) / 60_000) * 100) / 100;

const runs = folders.map((folder) => {
  // The run folder's own reader: a torn last line (a run stopped mid-append) is skipped.
  const paths = runPaths(folder);
  const start = readJsonLines(paths.events).find((event) => event.type === 'run-start');
  if (!start) throw new Error(`${paths.events} has no run-start event`);
  const rows = readJsonLines(paths.metrics);
  const evals = rows.filter((row) => row.kind === 'eval');
  if (evals.length === 0) throw new Error(`${paths.metrics} has no eval rows`);
  const curve = evals.map((row) => ({
    step: row.step,
    success: row.success,
    minutes: minutes(start.time, row.time),
    minutesFromFirstEval: minutes(evals[0].time, row.time),
  }));
  const reached = curve.find((point) => point.success >= threshold) ?? null;
  const last = rows.at(-1);
  return { folder, curve, reached, runMinutes: last?.time ? minutes(start.time, last.time) : null };
});

// Same held-out success at every step both runs evaluated?
const [first, ...others] = runs;
const bySteps = new Map(first.curve.map((point) => [point.step, point.success]));
const agreement = others.map((run) => {
  const common = run.curve.filter((point) => bySteps.has(point.step));
  const differing = common.filter((point) => bySteps.get(point.step) !== point.success).map((point) => point.step);
  return { folder: run.folder, commonSteps: common.length, differingSteps: differing };
});
const speedUps = others.map((run) => ({
  folder: run.folder,
  // > 1: the first run reached the threshold sooner.
  reachedRatio: first.reached && run.reached ? Math.round((run.reached.minutes / first.reached.minutes) * 100) / 100 : null,
  runRatio: first.runMinutes && run.runMinutes ? Math.round((run.runMinutes / first.runMinutes) * 100) / 100 : null,
}));
console.log(JSON.stringify({ threshold, runs, agreement, speedUps }, null, 2));
