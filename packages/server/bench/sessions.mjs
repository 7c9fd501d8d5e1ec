// VAGEN main's session protocol next to VAGEN's batch protocol, in one run on one env service;
// prints one JSON object on stdout. Run after the build:
//   pnpm --filter @saccade/server bench:sessions        (BENCH_SESSIONS=256 BENCH_STEPS=10 by default)
// Sessions: BENCH_SESSIONS clients at once, each its own FrozenLake (vision: a PNG part per step),
// connecting with a seed (connect + reset) and then stepping BENCH_STEPS times through POST /call,
// one request per step, as VAGEN's GymImageEnvClient does; an episode that ends is reset.
// Batch: the same number of envs in one /environments, then BENCH_STEPS /batch/step calls of all
// of them (PNGs base64 in JSON), one batch in flight. A step's latency is its request's; in the
// batch protocol every step of a batch waits for the whole batch.
import { availableParallelism, loadavg } from 'node:os';
import { decodeMultipartBody, encodeMultipartBody } from '@saccade/core';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { createEnvServer } from '../dist/index.js';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 256);
const STEPS = Number(process.env.BENCH_STEPS ?? 10);
const ACTIONS = ['<think>x</think><answer>Left</answer>', '<think>x</think><answer>Up</answer>', '<think>x</think><answer>Right</answer>'];

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const summary = (latencies, elapsedMs, steps) => ({
  steps,
  stepsPerSecond: Math.round((steps / elapsedMs) * 1000),
  p50Ms: +percentile(latencies, 50).toFixed(2),
  p99Ms: +percentile(latencies, 99).toFixed(2),
});

async function multipart(url, data) {
  const { contentType, body } = encodeMultipartBody({ data, images: [] }, 'form-data');
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${url}: ${response.status} ${new TextDecoder().decode(bytes)}`);
  return { answer: decodeMultipartBody(response.headers.get('content-type'), bytes), bytes: bytes.length };
}

async function postJson(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
  return { json: JSON.parse(text), bytes: text.length };
}

async function sessions(url) {
  const latencies = [];
  let bytes = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, index) => {
      const connected = await multipart(`${url}/connect`, { env_config: { env_name: 'frozenlake', render_mode: 'vision' }, seed: index });
      const sessionId = connected.answer.data.session_id;
      for (let step = 0; step < STEPS; step++) {
        const begun = performance.now();
        const { answer, bytes: size } = await multipart(`${url}/call`, { session_id: sessionId, method: 'step', params: { action_str: ACTIONS[(step + index) % ACTIONS.length] } });
        latencies.push(performance.now() - begun);
        bytes += size;
        if (answer.data.done) await multipart(`${url}/call`, { session_id: sessionId, method: 'reset', params: { seed: index + step * SESSIONS } });
      }
      await multipart(`${url}/call`, { session_id: sessionId, method: 'close' });
    }),
  );
  return { ...summary(latencies, performance.now() - start, SESSIONS * STEPS), bytesPerStep: Math.round(bytes / (SESSIONS * STEPS)) };
}

async function batch(url) {
  const ids = Array.from({ length: SESSIONS }, (_, index) => `fl-${index}`);
  await postJson(`${url}/environments`, { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'frozenlake', env_config: { render_mode: 'vision' } }])) });
  await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(ids.map((id, index) => [id, index])) });
  const latencies = [];
  let bytes = 0;
  const start = performance.now();
  for (let step = 0; step < STEPS; step++) {
    const begun = performance.now();
    const { json, bytes: size } = await postJson(`${url}/batch/step`, { ids2actions: Object.fromEntries(ids.map((id, index) => [id, ACTIONS[(step + index) % ACTIONS.length]])) });
    const took = performance.now() - begun;
    bytes += size;
    for (let index = 0; index < ids.length; index++) latencies.push(took);
    const ended = ids.filter((id) => json.results[id][2] === true);
    if (ended.length > 0) await postJson(`${url}/batch/reset`, { ids2seeds: Object.fromEntries(ended.map((id, index) => [id, step * SESSIONS + index])) });
  }
  const elapsed = performance.now() - start;
  await postJson(`${url}/batch/close`, { env_ids: ids });
  return { ...summary(latencies, elapsed, SESSIONS * STEPS), bytesPerStep: Math.round(bytes / (SESSIONS * STEPS)) };
}

registerGridEnvs();
const server = createEnvServer({ logger: false, vagenEnvNames: { frozenlake: FROZEN_LAKE_ID } });
const url = await server.listen(0);
// A short warm-up of both paths (JIT, frame cache), not measured.
await Promise.all(Array.from({ length: 8 }, (_, index) => multipart(`${url}/connect`, { env_config: { env_name: 'frozenlake', render_mode: 'vision' }, seed: index }).then(({ answer }) => multipart(`${url}/call`, { session_id: answer.data.session_id, method: 'close' }))));
const result = {
  machine: { cpus: availableParallelism(), loadAverage1m: +loadavg()[0].toFixed(2) },
  sessions: SESSIONS,
  stepsEach: STEPS,
  env: 'saccade/FrozenLake-v1 (vision)',
  sessionProtocol: await sessions(url),
  batchProtocol: await batch(url),
};
await server.close();
console.log(JSON.stringify(result, null, 2));
