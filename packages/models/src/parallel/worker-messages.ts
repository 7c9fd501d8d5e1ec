import type { GenerateOptions, GeneratedSample } from '../generate';
import type { PhaseTotals } from '../phase-timer';
import type { LossReference } from './shard-loss';

/** Main thread → worker: the weights to use and one shard to differentiate. */
export interface GradientRequest {
  kind: 'gradients';
  id: number;
  weights: Float32Array;
  loss: LossReference;
  shard: readonly unknown[];
  context: unknown;
  /** Time the request's phases and send them back (the main thread's PhaseTimer is on). */
  profile?: boolean;
}

/** Main thread → worker: the weights to use and a share of the prompts to sample from. */
export interface GenerateRequest {
  kind: 'generate';
  id: number;
  weights: Float32Array;
  options: Omit<GenerateOptions, 'signal'>;
  profile?: boolean;
}

export type WorkerRequest = GradientRequest | GenerateRequest;

/** Worker → main thread. `id` 0 with `ready` announces a started worker. */
export type WorkerReply =
  | { id: number; ok: true; ready: true }
  | { id: number; ok: true; ready?: undefined; gradients: Float32Array; loss: number; metrics: Record<string, number>; profile?: PhaseTotals }
  | { id: number; ok: true; ready?: undefined; samples: GeneratedSample[][]; profile?: PhaseTotals }
  | { id: number; ok: false; error: string };
