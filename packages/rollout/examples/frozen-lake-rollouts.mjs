// Rollouts on FrozenLake, end to end: 4 maps × a group of 4 episodes each by a random agent,
// stored as JSONL with images beside it, read back, tokenised for Qwen2.5-VL and exported.
// Run from the repository after `pnpm nx run @saccade/rollout:build`:
//   node packages/rollout/examples/frozen-lake-rollouts.mjs
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomAgent } from '@saccade/agents';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import {
  createQwen25SequenceTokenizer,
  openTrajectoryStore,
  runRollouts,
  tokenizeTrajectory,
  writeSequencesJsonl,
  writeSequencesParquet,
} from '@saccade/rollout';

registerGridEnvs();
const folder = await mkdtemp(join(tmpdir(), 'saccade-rollouts-'));
const store = await openTrajectoryStore({ path: join(folder, 'trajectories', 'rollouts.jsonl') });

const prompts = [0, 1, 2, 3].map((seed) => ({ envId: FROZEN_LAKE_ID, seed, envOptions: { observation: 'vision', format: 'free_think' } }));
const { metrics } = await runRollouts({
  prompts,
  groupSize: 4,
  // One agent per episode, each drawing its own random moves.
  agent: ({ episodeId }) => createRandomAgent({ actions: ['Left', 'Down', 'Right', 'Up'], seed: episodeId }),
  concurrency: 8,
  maxTurns: 3,
  store,
  onEvent: (event) => {
    if (event.type === 'episode-end') console.log(`${event.episodeId}: reward ${event.totalReward}, ${event.turns} turns${event.success ? ', reached the goal' : ''}`);
  },
});
await store.close();
console.log(`${metrics.episodes} episodes, mean reward ${metrics.meanReward.toFixed(2)}, success ${(metrics.success * 100).toFixed(0)}%`);

// Read the store back (streaming) and turn each trajectory into one training sequence.
const tokenizer = await createQwen25SequenceTokenizer({ imagePadTokens: 64 });
const sequences = [];
for await (const trajectory of store.read({ filter: { failed: false } })) {
  sequences.push(tokenizeTrajectory(trajectory, tokenizer, { rewardPlacement: 'turn', historyWindow: 5, maxLength: 4096 }));
}
const [first] = sequences;
console.log(`${first.trajectoryId}: ${first.inputIds.length} tokens, ${first.lossMask.filter((bit) => bit === 1).length} with loss, ends of turn at ${first.endOfTurn.join(', ')}`);

await writeSequencesJsonl(join(folder, 'sequences.jsonl'), sequences);
await writeSequencesParquet(join(folder, 'sequences.parquet'), sequences);
console.log(`store, images and exports in ${folder}`);
