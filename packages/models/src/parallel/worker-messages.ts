import type { LossReference } from './shard-loss';

/** Main thread → worker: the weights to use and one shard to differentiate. */
export interface WorkerRequest {
  id: number;
  weights: Float32Array;
  loss: LossReference;
  shard: readonly unknown[];
  context: unknown;
}

/** Worker → main thread. `id` 0 with `ready` announces a started worker. */
export type WorkerReply =
  | { id: number; ok: true; ready: true }
  | { id: number; ok: true; ready?: undefined; gradients: Float32Array; loss: number; metrics: Record<string, number> }
  | { id: number; ok: false; error: string };
