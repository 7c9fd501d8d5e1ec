import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs-core';
import { backendInfo } from '@saccade/tensor';
import { activePhaseTimer, timePhase } from '../phase-timer';
import { applyGradients, type ApplyLossResult } from '../train-step';
import type { GenerateOptions, GeneratedSample } from '../generate';
import type { VisionLanguageModel } from '../vision-language-model';
import { flattenTensors, sharedFloats, totalSize, unflattenTensors } from './flat-weights';
import { resolveLoss } from './resolve-loss';
import { addShardGradients, exampleCost, shardGradients, type ShardGradients } from './shard-gradients';
import type { LossReference, ShardLoss } from './shard-loss';
import type { WorkerReply, WorkerRequest } from './worker-messages';

/** How many worker threads a DataParallel starts besides the main thread. */
export interface DataParallelOptions {
  /**
   * Worker threads besides the main thread (default: one per spare core on the single-threaded
   * wasm and cpu backends, none on native TensorFlow, which already uses every core).
   */
  workers?: number;
}

/** The gradient clipping a DataParallel step applies to the summed gradients. */
export interface DataParallelStepOptions {
  /** Clip the global gradient norm to this (default 1). */
  maxGradientNorm?: number;
}

/** A DataParallel step's loss and gradient norm, and its loss's metrics summed over the shards. */
export interface DataParallelStepResult extends ApplyLossResult {
  metrics: Record<string, number>;
}

const requireHere = createRequire(import.meta.url);

/** The worker script of this package (built to dist/gradient-worker.js). */
function workerScript(): URL {
  return pathToFileURL(requireHere.resolve('@saccade/models/gradient-worker'));
}

/** Shard sizes balanced by cost: longest first onto the least loaded shard. */
export function splitIntoShards<Example>(examples: readonly Example[], shardCount: number, cost: (example: Example) => number): Example[][] {
  const shards: { load: number; items: { index: number; example: Example }[] }[] = Array.from({ length: shardCount }, () => ({ load: 0, items: [] }));
  const order = examples.map((example, index) => ({ index, example, cost: cost(example) })).sort((a, b) => b.cost - a.cost || a.index - b.index);
  for (const item of order) {
    const target = shards.reduce((best, shard) => (shard.load < best.load ? shard : best));
    target.load += item.cost;
    target.items.push(item);
  }
  // Keep each shard in the batch's order, so that results do not depend on the split's order.
  return shards.map((shard) => shard.items.sort((a, b) => a.index - b.index).map((item) => item.example));
}

/**
 * Data-parallel gradients on one machine: the main thread and `workers` threads each hold the
 * model and differentiate a shard of every batch at the same weights; the gradients are summed
 * and the main thread's optimizer applies them. On the single-threaded wasm backend this is how a
 * step uses more than one core. Losses are named by module (see LossReference) so that worker
 * threads can import them; shard losses must add up to the batch loss.
 */
export class DataParallel {
  readonly model: VisionLanguageModel;
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private closed = false;
  private weightBuffer: Float32Array | undefined;

  private constructor(model: VisionLanguageModel, workers: Worker[]) {
    this.model = model;
    this.workers = workers;
  }

  static async create(model: VisionLanguageModel, options: DataParallelOptions = {}): Promise<DataParallel> {
    const backend = backendInfo();
    if (!backend) throw new Error('initTensor() must finish before DataParallel.create (the workers use the same backend).');
    const spare = Math.max(0, availableParallelism() - 1);
    const count = options.workers ?? (backend.name === 'tensorflow' ? 0 : spare);
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`DataParallel workers must be a non-negative integer; got ${count}.`);
    const workerData = { config: model.config, tokenizer: model.tokenizer.toJSON(), backend: backend.name };
    const workers = await Promise.all(
      Array.from({ length: count }, () => {
        const worker = new Worker(workerScript(), { workerData });
        return new Promise<Worker>((resolve, reject) => {
          const onError = (error: Error): void => reject(new Error(`A gradient worker failed to start: ${error.message}`));
          worker.once('error', onError);
          worker.once('message', (reply: WorkerReply) => {
            worker.off('error', onError);
            if (reply.ok && reply.ready) resolve(worker);
            else reject(new Error(`A gradient worker failed to start: ${reply.ok ? 'unexpected reply' : reply.error}`));
          });
        });
      }),
    );
    const parallel = new DataParallel(model, workers);
    for (const worker of workers) parallel.listen(worker);
    return parallel;
  }

  /** Threads taking part in a step, the main thread included. */
  get threadCount(): number {
    return this.workers.length + 1;
  }

  /** Gradients of the summed shard losses at the model's current weights (the caller disposes them). */
  async computeGradients<Example, Context>(
    loss: LossReference,
    examples: readonly Example[],
    context: Context,
  ): Promise<ShardGradients> {
    if (this.closed) throw new Error('DataParallel was closed.');
    if (this.failure) throw this.failure;
    const lossFunction = (await resolveLoss(loss)) as ShardLoss<Example, Context>;
    const shards = splitIntoShards(examples, this.threadCount, exampleCost).filter((shard) => shard.length > 0);
    const [local = [], ...remote] = shards;
    const profile = activePhaseTimer() !== undefined;
    // Post the workers' shards first, so they run while this thread does its own.
    const replies = timePhase('exchange.send', () => {
      const weights = remote.length > 0 ? this.sharedWeights() : undefined;
      return remote.map((shard, index) =>
        this.request(this.workers[index]!, { kind: 'gradients', id: this.nextId++, weights: weights!, loss, shard, context, ...(profile ? { profile } : {}) }),
      );
    });
    let own: ShardGradients;
    try {
      own = shardGradients(this.model, lossFunction, local, context);
    } catch (error) {
      // The workers' replies still come, or are rejected when the caller closes: handled here, so
      // the error the caller meets is this shard's (as generate's shares are awaited together).
      for (const reply of replies) reply.catch(() => {});
      throw error;
    }
    let settled: WorkerReply[];
    try {
      settled = await timePhase('exchange.wait', () => Promise.all(replies));
    } catch (error) {
      tf.dispose(own.gradients);
      throw error;
    }
    return timePhase('exchange.receive', () => {
      let total = own;
      for (const reply of settled) {
        if (!reply.ok || reply.ready || !('gradients' in reply)) continue;
        if (reply.profile) activePhaseTimer()?.recordWorker(reply.profile);
        total = addShardGradients(total, { gradients: unflattenTensors(reply.gradients, total.gradients), loss: reply.loss, metrics: reply.metrics });
      }
      return total;
    });
  }

  /**
   * model.generate with the prompts shared out over the threads (contiguous shares, results in
   * prompt order). Share k samples with seed + k, so samples depend on the thread count too.
   */
  async generate(options: GenerateOptions): Promise<GeneratedSample[][]> {
    if (this.closed) throw new Error('DataParallel was closed.');
    if (this.failure) throw this.failure;
    const { signal, ...rest } = options;
    const shares = Math.min(this.threadCount, options.prompts.length);
    if (shares <= 1) return this.model.generate(options);
    const size = Math.ceil(options.prompts.length / shares);
    const parts = Array.from({ length: shares }, (_, index) => options.prompts.slice(index * size, (index + 1) * size)).filter((part) => part.length > 0);
    const seed = options.seed ?? 0;
    const timer = activePhaseTimer();
    const remote = timePhase('exchange.send', () => {
      const weights = this.sharedWeights();
      return parts.slice(1).map((prompts, index) =>
        this.request(this.workers[index]!, { kind: 'generate', id: this.nextId++, weights, options: { ...rest, prompts, seed: seed + index + 1 }, ...(timer ? { profile: true } : {}) }),
      );
    });
    // With a timer: when this thread's share ended, to tell waiting for the workers apart.
    let ownEnd = 0;
    const own = this.model.generate({ ...options, prompts: parts[0]!, seed });
    // Awaited together: a share that fails first must not leave the others' rejections unhandled.
    const [local, ...replies] = await Promise.all([timer ? own.then((samples) => ((ownEnd = timer.now()), samples)) : own, ...remote]);
    if (timer) {
      timer.record('exchange.wait', timer.now() - ownEnd);
      for (const reply of replies) if (reply.ok && 'samples' in reply && reply.profile) timer.recordWorker(reply.profile);
    }
    signal?.throwIfAborted();
    return [local!, ...replies.map((reply) => (reply.ok && 'samples' in reply ? reply.samples : []))].flat();
  }

  /** One optimizer step: data-parallel gradients, global-norm clipping, the optimizer's update. */
  async step<Example, Context>(
    optimizer: tf.Optimizer,
    loss: LossReference,
    examples: readonly Example[],
    context: Context,
    options: DataParallelStepOptions = {},
  ): Promise<DataParallelStepResult> {
    const result = await this.computeGradients(loss, examples, context);
    const gradientNorm = applyGradients(this.model, optimizer, result.gradients, options.maxGradientNorm ?? 1);
    tf.dispose(result.gradients);
    return { loss: result.loss, gradientNorm, metrics: result.metrics };
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    for (const { reject } of this.pending.values()) reject(new Error('DataParallel was closed.'));
    this.pending.clear();
  }

  /**
   * The model's weights in the buffer the workers share (written here while they wait; they copy it
   * into their replicas when a request starts, and every request is awaited before the next write).
   */
  private sharedWeights(): Float32Array {
    const variables = this.model.trainableVariables;
    const size = totalSize(variables);
    if (this.weightBuffer?.length !== size) this.weightBuffer = sharedFloats(size);
    return flattenTensors(variables, this.weightBuffer);
  }

  private request(worker: Worker, request: WorkerRequest): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    }).then((reply) => {
      const typed = reply as WorkerReply;
      if (!typed.ok) throw new Error(`A gradient worker failed on its shard: ${typed.error}`);
      return typed;
    });
  }

  private listen(worker: Worker): void {
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      waiter.resolve(reply);
    });
    const fail = (error: Error): void => {
      this.failure = new Error(`A gradient worker stopped: ${error.message}`);
      for (const { reject } of this.pending.values()) reject(this.failure);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`exit code ${code}`));
    });
  }
}
