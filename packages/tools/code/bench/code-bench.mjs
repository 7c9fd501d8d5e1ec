// Latency of python_code calls: a cold start (a new interpreter: its worker thread, Pyodide's wasm
// and standard library), warm calls (the interpreter reused), a call that computes on a 448 × 448
// image, and the call after an endless loop (the interpreter replaced), with the process's memory.
// JSON on stdout. Run after `pnpm nx build @saccade/tool-code`:
//   node bench/code-bench.mjs [--warm 50] [--cold 3]
import { parseArgs } from 'node:util';
import { runTool } from '@saccade/core';
import { encodePng } from '@saccade/image';
import { createCodeTool } from '../dist/index.js';

const { values: flags } = parseArgs({ options: { warm: { type: 'string', default: '50' }, cold: { type: 'string', default: '3' } } });
const warmCalls = Math.max(1, Number(flags.warm) || 1);
const coldStarts = Math.max(1, Number(flags.cold) || 1);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const round = (value) => Math.round(value * 10) / 10;
const megabytes = (bytes) => Math.round(bytes / 1024 / 1024);

async function timed(tool, input, images = []) {
  const started = performance.now();
  const run = await runTool(tool, input, { images, timeoutMs: 120_000 });
  const ms = performance.now() - started;
  return { ms, run };
}

// 448 × 448 with a 100 × 60 red rectangle at (50, 80).
const side = 448;
const rgb = new Uint8Array(side * side * 3).fill(255);
for (let y = 80; y < 140; y++) for (let x = 50; x < 150; x++) rgb.set([255, 0, 0], (y * side + x) * 3);
const image = await encodePng({ data: rgb, width: side, height: side, channels: 3 });

const rssBefore = process.memoryUsage().rss;
const cold = [];
let rssOneInterpreter = 0;
for (let index = 0; index < coldStarts; index++) {
  const tool = createCodeTool({ concurrency: 1 });
  const { ms, run } = await timed(tool, { code: 'print(1 + 1)' });
  if (!run.ok || run.result.text !== '2') throw new Error(`cold call: expected 2, received ${JSON.stringify(run)}`);
  cold.push(ms);
  if (index === 0) rssOneInterpreter = process.memoryUsage().rss;
  if (index < coldStarts - 1) await closeTool(tool);
}

const tool = createCodeTool({ concurrency: 1, timeLimitMs: 2_000 });
await timed(tool, { code: 'pass' });
const warm = [];
for (let index = 0; index < warmCalls; index++) {
  const { ms, run } = await timed(tool, { code: `print(sum(range(${index + 1000})))` });
  if (!run.ok) throw new Error(`warm call failed: ${run.message}`);
  warm.push(ms);
}
const imageCode = 'red = sum(1 for i in range(0, len(image.rgb), 3) if image.rgb[i] > 200 and image.rgb[i + 1] < 50)\nprint(red)';
const onImage = [];
for (let index = 0; index < 5; index++) {
  const { ms, run } = await timed(tool, { code: imageCode }, [image]);
  if (!run.ok || run.result.text !== '6000') throw new Error(`image call: expected 6000, received ${JSON.stringify(run)}`);
  onImage.push(ms);
}
const loop = await timed(tool, { code: 'while True: pass' });
const afterLoop = await timed(tool, { code: 'print("up")' });
if (afterLoop.run.ok !== true) throw new Error(`the call after the loop failed: ${afterLoop.run.message}`);

console.log(
  JSON.stringify(
    {
      node: process.version,
      cpus: (await import('node:os')).availableParallelism(),
      loadAverage: (await import('node:os')).loadavg().map(round),
      coldStartMs: { runs: cold.map(round), median: round(median(cold)) },
      warmCallMs: { calls: warmCalls, median: round(median(warm)), p90: round(percentile(warm, 0.9)), min: round(Math.min(...warm)) },
      imageCallMs: { image: `${side}x${side} PNG`, what: 'decode + count red pixels in Python', median: round(median(onImage)) },
      endlessLoopMs: { timeLimitMs: 2_000, stoppedAfter: round(loop.ms), message: loop.run.ok ? null : loop.run.message },
      callAfterLoopMs: round(afterLoop.ms),
      rssMb: { before: megabytes(rssBefore), afterOneInterpreter: megabytes(rssOneInterpreter), oneInterpreter: megabytes(rssOneInterpreter - rssBefore) },
    },
    null,
    2,
  ),
);
process.exit(0);

async function closeTool() {
  // Each createCodeTool has its own sandbox; ending every sandbox made so far starts the next cold.
  const { closeCodeSandboxes } = await import('../dist/index.js');
  await closeCodeSandboxes();
}
