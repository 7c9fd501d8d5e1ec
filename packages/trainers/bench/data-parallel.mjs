#!/usr/bin/env node
// Where DataParallel's SFT step loses to perfect scaling (imports the built dists): one thread's
// step on the whole batch and on half of it, against DataParallel's step on the whole batch, with
// each thread's phases (forward, backward, exchange, clip, Adam; the worker's weights.assign and
// gradients.flatten). Steps alternate (single, half, parallel) so all see the same load; medians.
// With Linux's per-thread scheduler statistics (/proc/self/task/*/schedstat), each thread's time
// on a core and waiting for one during the DataParallel steps (`schedule`): the two computing
// threads, and V8's background threads (compiling and garbage collecting) that compete with them.
// Usage: node bench/data-parallel.mjs [--preset small] [--batch 32] [--steps 4] [--warmup 3] [--workers N]
import { initTensor, nativeMatMulStatus } from '@saccade/tensor';
import { applyChatTemplate, createAdamOptimizer, DataParallel, imageTokenCount, PhaseTimer, setPhaseTimer, VisionLanguageModel } from '@saccade/models';
import { countTargets, sftLossReference, sftStep } from '@saccade/trainers';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const count = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`--${name} must be a whole number ≥ 1; got ${option(name, fallback)}.`);
  return value;
};
const preset = option('preset', 'small');
const batchSize = count('batch', '32');
const steps = count('steps', '4');
const workersOption = option('workers', undefined);
const warmup = count('warmup', '3');

await initTensor();
const model = VisionLanguageModel.create({ preset, seed: 0 });
const size = model.config.imageSize;
// One FrozenLake-sized prompt and answer, a different image per example.
const sequence = applyChatTemplate(
  model.tokenizer,
  [
    { role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text: 'FrozenLake. Reach the goal, avoid holes. Actions?' }] },
    { role: 'assistant', content: '<think>go to goal</think><answer>Left,Right,Down</answer>' },
  ],
  { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
);
const batch = Array.from({ length: batchSize }, (_, index) => ({
  tokens: sequence.tokens,
  images: [{ width: size, height: size, data: new Uint8Array(size * size * 3).map((_, i) => (i * 37 + index * 11) % 251) }],
  lossMask: sequence.assistantMask,
}));
const half = batch.slice(0, Math.ceil(batchSize / 2));
const optimizer = createAdamOptimizer({ learningRate: 1e-4 });
const parallel = await DataParallel.create(model, workersOption === undefined ? {} : { workers: Number(workersOption) });
const context = { targetTokens: countTargets(batch) };

// Warm-up: kernels, Adam's slots, the workers, V8's compiling of the hot JavaScript.
for (let step = 0; step < warmup; step++) {
  sftStep(model, optimizer, batch);
  sftStep(model, optimizer, half);
  await parallel.step(optimizer, sftLossReference(), batch, context);
}

/** Nanoseconds on a core and waiting for one, per thread id (Linux), or undefined elsewhere. */
const schedstat = () => {
  if (!existsSync('/proc/self/task')) return undefined;
  const threads = {};
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${id}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
      threads[id] = { run, wait };
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return threads;
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10) / 10;
/** Runs fn under a fresh phase timer: its wall milliseconds and the phases of every thread. */
const timed = async (fn) => {
  const timer = new PhaseTimer();
  setPhaseTimer(timer);
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  setPhaseTimer(undefined);
  const snapshot = timer.take();
  const flat = (phases) => Object.fromEntries(Object.entries(phases ?? {}).map(([name, total]) => [name, total.ms]));
  return { ms, phases: flat(snapshot.phases), workers: flat(snapshot.workers) };
};
const runs = { single: [], half: [], parallel: [] };
const schedule = {};
for (let step = 0; step < steps; step++) {
  runs.single.push(await timed(() => sftStep(model, optimizer, batch)));
  runs.half.push(await timed(() => sftStep(model, optimizer, half)));
  const before = schedstat();
  runs.parallel.push(await timed(() => parallel.step(optimizer, sftLossReference(), batch, context)));
  const after = schedstat();
  if (before && after) {
    for (const [id, end] of Object.entries(after)) {
      const start = before[id];
      if (!start) continue;
      const total = (schedule[id] ??= { run: 0, wait: 0 });
      total.run += (end.run - start.run) / 1e6;
      total.wait += (end.wait - start.wait) / 1e6;
    }
  }
}
// Per DataParallel step: the two busiest threads are the computing ones (this one and the
// worker), the rest V8's and libuv's; milliseconds on a core and waiting for one.
const threadsBusiest = Object.values(schedule)
  .map((total) => ({ runMs: round(total.run / steps), waitMs: round(total.wait / steps) }))
  .filter((thread) => thread.runMs > 0.05)
  .sort((a, b) => b.runMs - a.runMs);
/** Median milliseconds of each phase over the steps. */
const phaseMedians = (list, key) => {
  const names = [...new Set(list.flatMap((run) => Object.keys(run[key])))];
  return Object.fromEntries(names.map((name) => [name, round(median(list.map((run) => run[key][name] ?? 0)))]));
};
const summary = (list) => ({ ms: round(median(list.map((run) => run.ms))), phases: phaseMedians(list, 'phases') });
const single = summary(runs.single);
const halfBatch = summary(runs.half);
const dataParallel = { ...summary(runs.parallel), workers: phaseMedians(runs.parallel, 'workers') };
await parallel.close();
console.log(
  JSON.stringify(
    {
      preset,
      nativeMatMul: nativeMatMulStatus(),
      loadAverage: loadavg(),
      batch: batchSize,
      tokensPerExample: sequence.tokens.length,
      threads: parallel.threadCount,
      steps,
      single,
      half: { examples: half.length, ...halfBatch },
      dataParallel,
      // Over one thread on the whole batch; perfect scaling over threadCount threads is threadCount.
      speedUp: round((single.ms / dataParallel.ms) * 100) / 100,
      // What the threads' shards would take alone (one thread on half the batch) against the step.
      halfOverParallel: round((halfBatch.ms / dataParallel.ms) * 100) / 100,
      warmup,
      schedule: existsSync('/proc/self/task')
        ? {
            computing: threadsBusiest.slice(0, parallel.threadCount),
            others: threadsBusiest.slice(parallel.threadCount),
            othersRunMs: round(threadsBusiest.slice(parallel.threadCount).reduce((sum, thread) => sum + thread.runMs, 0)),
          }
        : undefined,
    },
    null,
    2,
  ),
);
