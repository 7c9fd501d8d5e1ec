// A shard loss that fails on the main thread only, while the workers' shards go on: what a step
// meets when the main thread runs out of memory in its shard.
import { isMainThread } from 'node:worker_threads';
import { targetTokenLoss } from './target-token-loss.mjs';

export function failOnMainThread(model, shard, context) {
  if (isMainThread) throw new Error("the main thread's shard failed");
  return targetTokenLoss(model, shard, context);
}
