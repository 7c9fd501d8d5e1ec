import { pathToFileURL } from 'node:url';
import type { LossReference, ShardLoss } from './shard-loss';

const losses = new Map<string, ShardLoss>();

/** Imports the module a LossReference names (once per thread) and returns its ShardLoss. */
export async function resolveLoss(reference: LossReference): Promise<ShardLoss> {
  const key = `${reference.module}#${reference.export}`;
  let loss = losses.get(key);
  if (!loss) {
    const url = reference.module.startsWith('file:') ? reference.module : pathToFileURL(reference.module).href;
    const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
    const candidate = module[reference.export];
    if (typeof candidate !== 'function') {
      throw new TypeError(`${reference.module} exports no function ${reference.export} (got ${typeof candidate}).`);
    }
    loss = candidate as ShardLoss;
    losses.set(key, loss);
  }
  return loss;
}
