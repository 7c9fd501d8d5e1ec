// Service benchmarks; prints one JSON object on stdout. Run after the build:
//   pnpm --filter @saccade/server bench
// Figures depend on the machine and its load: say which machine, and whether it was shared.
// Batch step throughput and p50/p99 latency of VAGEN's /batch/step over loopback, 64 FrozenLake
// envs per batch in vision mode (PNG frames base64 in the JSON), against the same 64 envs stepped
// in process with Promise.all. Bounded: a fixed number of batches, one client, no parallel batches,
// plus a short load phase with `clients` batches in flight on disjoint ids.
import { execFile, spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeEnv } from '@saccade/core';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import sharp from 'sharp';
import { createEnvRouter, createEnvServer, createModelServer } from '../dist/index.js';

const VAGEN_NAMES = { frozenlake: FROZEN_LAKE_ID };
const SCALE_ENVS = Number(process.env.BENCH_SCALE_ENVS ?? 256);
const SCALE_BATCHES = Number(process.env.BENCH_SCALE_BATCHES ?? 12);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const ENVS = Number(process.env.BENCH_ENVS ?? 64);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 60);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
// Moves that keep an episode going on most maps; episodes that end are reset.
const ACTIONS = ['<think>x</think><answer>Left</answer>', '<think>x</think><answer>Up</answer>', '<think>x</think><answer>Right</answer>'];

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const summary = (latencies, elapsedMs, steps) => ({
  batches: latencies.length,
  stepsPerSecond: Math.round((steps / elapsedMs) * 1000),
  p50Ms: +percentile(latencies, 50).toFixed(2),
  p99Ms: +percentile(latencies, 99).toFixed(2),
});

async function postJson(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function inProcess() {
  registerGridEnvs();
  const envs = Array.from({ length: ENVS }, () => makeEnv('saccade/FrozenLake-v1', { observation: 'vision' }, { maxTurns: null }));
  await Promise.all(envs.map((env, index) => env.reset({ seed: index })));
  const latencies = [];
  const start = performance.now();
  for (let batch = 0; batch < BATCHES; batch++) {
    const begun = performance.now();
    await Promise.all(
      envs.map(async (env, index) => {
        const result = await env.step(ACTIONS[(batch + index) % ACTIONS.length]);
        if (result.terminated || result.truncated) await env.reset({ seed: index + batch * ENVS });
      }),
    );
    latencies.push(performance.now() - begun);
  }
  const elapsed = performance.now() - start;
  await Promise.all(envs.map((env) => env.close()));
  return summary(latencies, elapsed, ENVS * BATCHES);
}

async function overHttp(url, prefix, batches) {
  const ids = Array.from({ length: ENVS }, (_, index) => `${prefix}-${index}`);
  await postJson(`${url}/environments`, { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'frozenlake', env_config: { render_mode: 'vision' } }])) });
  await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(ids.map((id, index) => [id, index])) });
  const latencies = [];
  let bytes = 0;
  const start = performance.now();
  for (let batch = 0; batch < batches; batch++) {
    const begun = performance.now();
    const { results } = await postJson(`${url}/batch/step`, { ids2actions: Object.fromEntries(ids.map((id, index) => [id, ACTIONS[(batch + index) % ACTIONS.length]])) });
    const done = ids.filter((id) => results[id][2]);
    bytes += JSON.stringify(results).length;
    if (done.length > 0) await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(done.map((id, index) => [id, index + batch * ENVS])) });
    latencies.push(performance.now() - begun);
  }
  const elapsed = performance.now() - start;
  await postJson(`${url}/batch/close`, { env_ids: ids });
  return { latencies, elapsed, bytes };
}

// A first pass fills the process-wide frame cache, so neither side pays the first renders.
await inProcess();
const local = await inProcess();
const server = createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES });
const url = await server.listen(0);
const report = { machine: { cores: availableParallelism(), loadAverage1m: +loadavg()[0].toFixed(2), node: process.version } };
try {
  const single = await overHttp(url, 'single', BATCHES);
  const loadStart = performance.now();
  const load = await Promise.all(Array.from({ length: CLIENTS }, (_, client) => overHttp(url, `load-${client}`, Math.ceil(BATCHES / CLIENTS))));
  const loadElapsed = performance.now() - loadStart;
  const http = summary(single.latencies, single.elapsed, ENVS * BATCHES);
  // The same batches from a Python client (stdlib, the ways Python clients send), same server, same run.
  const python = JSON.parse((await promisify(execFile)('python3', [here('./python_batch_step.py'), url, String(ENVS), String(BATCHES), 'python'])).stdout);
  report.envService = {
    envsPerBatch: ENVS,
    batches: BATCHES,
    envId: 'saccade/FrozenLake-v1 (VAGEN frozenlake, vision)',
    inProcess: local,
    nodeFetchClient: { ...http, responseKiBPerBatch: Math.round(single.bytes / BATCHES / 1024) },
    pythonClient: python,
    overheadPerBatchMs: +(http.p50Ms - local.p50Ms).toFixed(2),
    load: { clients: CLIENTS, ...summary(load.flatMap((run) => run.latencies), loadElapsed, ENVS * load.reduce((sum, run) => sum + run.latencies.length, 0)) },
  };
} finally {
  await server.close();
}

// ---- Scale-out: SCALE_ENVS vision envs across N env service processes behind the router ----
async function startWorker() {
  const child = spawn(process.execPath, [here('./env-worker.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value;
  return { url: first.trim(), stop: async () => { child.kill('SIGTERM'); await exited; } };
}

async function scaled(workerCount) {
  const workers = await Promise.all(Array.from({ length: workerCount }, startWorker));
  const router = createEnvRouter({ logger: false, workers: workers.map((worker) => worker.url) });
  const routed = await router.listen(0);
  try {
    // 4 clients with SCALE_ENVS / 4 envs each: the batches of a VAGEN rollout worker pool, in flight together.
    const clients = 4;
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: clients }, (_, client) => overHttpSized(routed, `w${workerCount}-c${client}`, SCALE_ENVS / clients, SCALE_BATCHES)));
    const elapsed = performance.now() - started;
    return { workers: workerCount, envs: SCALE_ENVS, clients, envsPerBatch: SCALE_ENVS / clients, ...summary(runs.flatMap((run) => run.latencies), elapsed, SCALE_ENVS * SCALE_BATCHES) };
  } finally {
    await router.close();
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function overHttpSized(url, prefix, count, batches) {
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  await postJson(`${url}/environments`, { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'frozenlake', env_config: { render_mode: 'vision' } }])) });
  await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(ids.map((id, index) => [id, index])) });
  const latencies = [];
  for (let batch = 0; batch < batches; batch++) {
    const begun = performance.now();
    const { results } = await postJson(`${url}/batch/step`, { ids2actions: Object.fromEntries(ids.map((id, index) => [id, ACTIONS[(batch + index) % ACTIONS.length]])) });
    latencies.push(performance.now() - begun);
    const done = ids.filter((id) => results[id][2]);
    if (done.length > 0) await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(done.map((id, index) => [id, index + batch * count])) });
  }
  await postJson(`${url}/batch/close`, { env_ids: ids });
  return { latencies };
}

report.scaleOut = [await scaled(1), await scaled(2)];

// ---- Model server: 503 past the queue, /health while generating ----
{
  const model = createModelServer({ preset: 'tiny', modelName: 'bench', logger: false, maxQueue: 4 });
  const base = await model.listen(0);
  const image = `data:image/png;base64,${(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2040ff' } }).png().toBuffer()).toString('base64')}`;
  const body = { model: 'bench', messages: [{ role: 'user', content: [{ type: 'text', text: 'Which way?' }, { type: 'image_url', image_url: { url: image } }] }], max_tokens: 64, n: 8, temperature: 1 };
  const send = () => fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) => response.status);
  const began = performance.now();
  const statuses = Promise.all(Array.from({ length: 8 }, send));
  const health = [];
  let generating = true;
  void statuses.then(() => (generating = false));
  while (generating && health.length < 200) {
    const start = performance.now();
    await fetch(`${base}/health`).then((response) => response.json());
    health.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const codes = await statuses;
  report.modelServer = {
    requests: codes.length,
    maxQueue: 4,
    answered200: codes.filter((code) => code === 200).length,
    answered503: codes.filter((code) => code === 503).length,
    generationWallMs: Math.round(performance.now() - began),
    healthDuringGeneration: { samples: health.length, p50Ms: +percentile(health, 50).toFixed(2), p99Ms: +percentile(health, 99).toFixed(2), maxMs: +Math.max(...health).toFixed(2) },
  };
  await model.close();
}

console.log(JSON.stringify(report, null, 2));
