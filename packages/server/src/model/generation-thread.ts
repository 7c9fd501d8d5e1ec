import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GeneratedSample, GenerateOptions, VisionLanguageModel } from '@saccade/models';
import { backendInfo } from '@saccade/tensor';

const requireHere = createRequire(import.meta.url);

type Reply = { id: number; ok: true; ready?: true; samples?: GeneratedSample[][] } | { id: number; ok: false; error: string };

/**
 * The model's replica on a worker thread (the models package's data-parallel worker), so that
 * generation never holds the event loop: requests are read, queued, answered 503 past the queue,
 * and `/health` answers while a completion is being sampled. The weights are copied once per
 * request (the worker takes them with each job); the server's weights never change.
 */
export class GenerationThread {
  readonly #worker: Worker;
  readonly #weights: Float32Array;
  readonly #pending = new Map<number, { resolve: (samples: GeneratedSample[][]) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #failure: Error | undefined;
  #closed = false;

  private constructor(worker: Worker, weights: Float32Array) {
    this.#worker = worker;
    this.#weights = weights;
    worker.on('message', (reply: Reply) => {
      const waiter = this.#pending.get(reply.id);
      if (waiter === undefined) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.samples ?? []);
      else waiter.reject(new Error(`Generation failed: ${reply.error.split('\n')[0] ?? ''}`));
    });
    const fail = (error: Error): void => {
      this.#failure = new Error(`The generation thread stopped: ${error.message}`);
      for (const { reject } of this.#pending.values()) reject(this.#failure);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.#closed) fail(new Error(`exit code ${code}`));
    });
  }

  /** Starts a thread holding a copy of `model` (its config, tokenizer and current weights). */
  static async start(model: VisionLanguageModel): Promise<GenerationThread> {
    const backend = backendInfo();
    if (backend === undefined) throw new Error('initTensor() must finish before the generation thread starts (it uses the same backend).');
    const script = pathToFileURL(requireHere.resolve('@saccade/models/gradient-worker'));
    const worker = new Worker(script, { workerData: { config: model.config, tokenizer: model.tokenizer.toJSON(), backend: backend.name } });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(new Error(`The generation thread failed to start: ${error.message}`));
      worker.once('error', onError);
      worker.once('message', (reply: Reply) => {
        worker.off('error', onError);
        if (reply.ok && reply.ready) resolve();
        else reject(new Error(`The generation thread failed to start: ${reply.ok ? 'unexpected reply' : reply.error}`));
      });
    });
    const weights = new Float32Array(model.trainableVariables.reduce((sum, variable) => sum + variable.size, 0));
    let offset = 0;
    for (const variable of model.trainableVariables) {
      weights.set(variable.dataSync() as Float32Array, offset);
      offset += variable.size;
    }
    return new GenerationThread(worker, weights);
  }

  /** model.generate on the thread. An abort stops waiting; the thread finishes the job it has. */
  generate(options: GenerateOptions): Promise<GeneratedSample[][]> {
    if (this.#closed) return Promise.reject(new Error('The generation thread was closed.'));
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const { signal, ...rest } = options;
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ kind: 'generate', id, weights: this.#weights, options: rest });
      signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#worker.terminate();
    for (const { reject } of this.#pending.values()) reject(new Error('The generation thread was closed.'));
    this.#pending.clear();
  }
}
