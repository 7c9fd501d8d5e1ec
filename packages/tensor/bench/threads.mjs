#!/usr/bin/env node
// Do kernels scale to two threads? A product ([4736,128]·[128,512], the MLP's up projection at the
// training shapes) and an element-wise add ([4800,512] + [4800,512]) in a loop for a few seconds,
// on one thread alone and then on the main thread and a worker thread at once, each with its own
// wasm backend (as DataParallel's threads are). Imports the BUILT dist. JSON: GFLOP/s and GB/s per
// thread. Usage: node bench/threads.mjs [--seconds 4]
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import os from 'node:os';
import { initTensor, nativeMatMulStatus, tf } from '../dist/index.js';

const secondsIndex = process.argv.indexOf('--seconds');
const seconds = secondsIndex >= 0 ? Number(process.argv[secondsIndex + 1]) : 4;
if (!(seconds > 0)) throw new RangeError(`--seconds must be a positive number; got ${process.argv[secondsIndex + 1]}`);
await initTensor({ backend: 'wasm' });

/** Runs fn for `seconds`; calls a second. */
function rate(fn) {
  tf.dispose(fn());
  const start = performance.now();
  let calls = 0;
  while (performance.now() - start < seconds * 1000) {
    tf.dispose(fn());
    calls++;
  }
  return calls / ((performance.now() - start) / 1000);
}

function measure() {
  const a = tf.randomNormal([4736, 128]);
  const b = tf.randomNormal([128, 512]);
  const x = tf.randomNormal([4800, 512]);
  const y = tf.randomNormal([4800, 512]);
  const product = rate(() => tf.matMul(a, b));
  const add = rate(() => tf.add(x, y));
  tf.dispose([a, b, x, y]);
  return {
    matMulGflops: Math.round(((product * 2 * 4736 * 128 * 512) / 1e9) * 10) / 10,
    // Two operands read and one result written, 4 bytes each.
    addGBps: Math.round(((add * 4800 * 512 * 12) / 1e9) * 10) / 10,
  };
}

if (isMainThread) {
  const alone = measure();
  const worker = new Worker(new URL(import.meta.url), { argv: process.argv.slice(2) });
  const messages = [];
  const waiters = [];
  worker.on('message', (message) => (waiters.length > 0 ? waiters.shift()(message) : messages.push(message)));
  const next = () => new Promise((resolve, reject) => (messages.length > 0 ? resolve(messages.shift()) : (waiters.push(resolve), worker.once('error', reject))));
  // Both loops start together: the worker says when its backend is up, then both measure.
  await next();
  worker.postMessage('go');
  const main = measure();
  const other = await next();
  await worker.terminate();
  console.log(
    JSON.stringify(
      { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadAverage: os.loadavg(), nativeMatMul: nativeMatMulStatus(), seconds, alone, together: { main, worker: other } },
      null,
      2,
    ),
  );
} else {
  parentPort.postMessage('ready');
  parentPort.once('message', () => parentPort.postMessage(measure()));
}
