import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { openSession } from '@saccade/onnx';
import * as ort from 'onnxruntime-node';

/** Runs a one-input, one-output ONNX model; runs may overlap. */
export interface ModelRunner {
  /** Runs that proceed at once. */
  readonly concurrency: number;
  run(input: Float32Array, dims: readonly number[]): Promise<{ data: Float32Array; dims: readonly number[] }>;
  close(): Promise<void>;
}

/**
 * A runner for many small runs (text lines). With one thread, a session in this thread. With more,
 * one single-threaded session per worker thread, each taking the next waiting run: onnxruntime-node
 * runs one session call at a time per thread, and its intra-op threads gain little on small inputs
 * (a 48 × 200 line: 1.2× from 2 threads), while lines read on separate threads gain nearly 2×.
 */
export async function openModelRunner(model: Uint8Array, source: string, threads = 1): Promise<ModelRunner> {
  if (threads <= 1) {
    const session = await openSession(model, source);
    const inputName = session.inputNames[0]!;
    const outputName = session.outputNames[0]!;
    return {
      concurrency: 1,
      async run(input, dims) {
        const output = (await session.run({ [inputName]: new ort.Tensor('float32', input, dims) }))[outputName]!;
        return { data: output.data as Float32Array, dims: output.dims };
      },
      close: () => session.release(),
    };
  }
  const workers = await Promise.all(Array.from({ length: threads }, () => startWorker(model, source)));
  const idle = [...workers];
  const waiting: Array<(worker: RunnerWorker) => void> = [];
  const release = (worker: RunnerWorker) => {
    const next = waiting.shift();
    if (next !== undefined) next(worker);
    else idle.push(worker);
  };
  return {
    concurrency: workers.length,
    async run(input, dims) {
      const worker = idle.pop() ?? (await new Promise<RunnerWorker>((resolve) => waiting.push(resolve)));
      try {
        return await worker.run(input, dims);
      } finally {
        release(worker);
      }
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}

type RunnerWorker = ModelRunner;

// CommonJS evaluated in the worker, so it runs the same from the sources (tests) and the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.runtime);
const message = (error) => (error && error.message) || String(error);
ort.InferenceSession.create(workerData.model, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1 }).then(
  (session) => {
    parentPort.postMessage({ ready: true });
    parentPort.on('message', async ({ id, data, dims }) => {
      try {
        const output = (await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, dims) }))[session.outputNames[0]];
        const copy = new Float32Array(output.data);
        parentPort.postMessage({ id, data: copy, dims: output.dims }, [copy.buffer]);
      } catch (error) {
        parentPort.postMessage({ id, error: message(error) });
      }
    });
  },
  (error) => parentPort.postMessage({ ready: false, error: message(error) }),
);
`;

interface Reply {
  id?: number;
  ready?: boolean;
  data?: Float32Array;
  dims?: number[];
  error?: string;
}

async function startWorker(model: Uint8Array, source: string): Promise<RunnerWorker> {
  const runtime = createRequire(import.meta.url).resolve('onnxruntime-node');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { model, runtime } });
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', (reply: Reply) => {
      if (reply.ready === true) resolve();
      else reject(new Error(`expected an ONNX model at ${source}, could not load it in a worker thread: ${reply.error ?? 'no reason given'}`));
    });
    worker.once('error', reject);
  });
  worker.on('message', (reply: Reply) => {
    if (reply.id === undefined) return;
    const job = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error !== undefined) job?.reject(new Error(`the model ${source} failed on a worker thread: ${reply.error}`));
    else job?.resolve(reply);
  });
  worker.on('error', (error) => fail(new Error(`the worker thread running ${source} crashed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => fail(new Error(`the worker thread running ${source} exited (code ${code})`)));
  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  // Idle workers do not keep the process alive; a worker with runs in flight does.
  worker.unref();
  return {
    concurrency: 1,
    async run(input, dims) {
      if (failure !== undefined) throw failure;
      const id = nextId++;
      const reply = await new Promise<Reply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, data: input, dims });
      });
      return { data: reply.data!, dims: reply.dims! };
    },
    async close() {
      failure ??= new Error(`the runner of ${source} is closed`);
      await worker.terminate();
    },
  };
}
