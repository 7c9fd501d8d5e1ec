// Env service benchmark; prints one JSON object on stdout. Run after the build:
//   pnpm --filter @saccade/server bench
// Batch step throughput and p50/p99 latency of VAGEN's /batch/step over loopback, 64 FrozenLake
// envs per batch in vision mode (PNG frames base64 in the JSON), against the same 64 envs stepped
// in process with Promise.all. Bounded: a fixed number of batches, one client, no parallel batches,
// plus a short load phase with `clients` batches in flight on disjoint ids.
import { makeEnv } from '@saccade/core';
import { registerGridEnvs } from '@saccade/env-grid';
import { createEnvServer } from '../dist/index.js';

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
const server = createEnvServer({ logger: false });
const url = await server.listen(0);
try {
  const single = await overHttp(url, 'single', BATCHES);
  const loadStart = performance.now();
  const load = await Promise.all(Array.from({ length: CLIENTS }, (_, client) => overHttp(url, `load-${client}`, Math.ceil(BATCHES / CLIENTS))));
  const loadElapsed = performance.now() - loadStart;
  const http = summary(single.latencies, single.elapsed, ENVS * BATCHES);
  console.log(
    JSON.stringify(
      {
        envsPerBatch: ENVS,
        batches: BATCHES,
        envId: 'saccade/FrozenLake-v1 (VAGEN frozenlake, vision)',
        inProcess: local,
        envService: { ...http, responseKiBPerBatch: Math.round(single.bytes / BATCHES / 1024) },
        overheadPerBatchMs: +(http.p50Ms - local.p50Ms).toFixed(2),
        throughputRatio: +(http.stepsPerSecond / local.stepsPerSecond).toFixed(2),
        load: { clients: CLIENTS, ...summary(load.flatMap((run) => run.latencies), loadElapsed, ENVS * load.reduce((sum, run) => sum + run.latencies.length, 0)) },
        node: process.version,
      },
      null,
      2,
    ),
  );
} finally {
  await server.close();
}
