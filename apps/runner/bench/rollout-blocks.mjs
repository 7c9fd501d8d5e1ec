#!/usr/bin/env node
// What an RL run's own rollouts scored, in blocks of steps: the means of the sampled training
// episodes' success (and, with tools, crops on the target and success after a hit) over each block
// of --block steps, read from each run folder's metrics.jsonl. A step's rollout is one batch of
// fresh seeds, so one step swings with the seeds it drew; a block's mean shows the trend that GRPO
// optimises (the sampled policy), apart from the greedy held-out evaluation. Prints one JSON object.
//
//   node apps/runner/bench/rollout-blocks.mjs [--block 10] <run folder> [<run folder> …]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { block: { type: 'string', default: '10' } } });
const block = Number(values.block);
if (!Number.isInteger(block) || block < 1) {
  console.error(`--block: expected a positive integer, received ${values.block}`);
  process.exit(2);
}
if (positionals.length === 0) {
  console.error('usage: rollout-blocks.mjs [--block n] <run folder> [<run folder> …]');
  process.exit(2);
}

const KEYS = ['success', 'targetHitRate', 'successWithHit', 'invalidCallRate'];
const runs = {};
for (const folder of positionals) {
  let text;
  try {
    text = readFileSync(join(folder, 'metrics.jsonl'), 'utf8');
  } catch (error) {
    console.error(`${folder}: expected a run folder with metrics.jsonl (${error.message})`);
    process.exit(1);
  }
  const rows = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
    .filter((row) => row.kind === 'rollout');
  const blocks = [];
  for (let start = 0; start < rows.length; start += block) {
    const part = rows.slice(start, start + block);
    const means = {};
    for (const key of KEYS) {
      const numbers = part.map((row) => row[key]).filter((value) => typeof value === 'number' && Number.isFinite(value));
      if (numbers.length > 0) means[key] = Number((numbers.reduce((sum, value) => sum + value, 0) / numbers.length).toFixed(4));
    }
    blocks.push({ steps: [part[0].step, part.at(-1).step], ...means });
  }
  runs[folder] = blocks;
}
process.stdout.write(`${JSON.stringify({ bench: 'rollout-blocks', block, runs }, null, 2)}\n`);
