// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createQwen25SequenceTokenizer,
  openTrajectoryStore,
  readSequencesParquet,
  runRollouts,
  tokenizeTrajectory,
  writeSequencesParquet,
} from '@saccade/rollout';

const createEnv = () => {
  let turn = 0;
  return {
    specificationVersion: 'v1',
    id: 'check/Echo-v1',
    async reset() {
      turn = 0;
      return { observation: { text: 'Say ok.', images: [] }, info: {} };
    },
    async step(action) {
      turn++;
      return { observation: { text: 'Again.', images: [] }, reward: action === 'ok' ? 1 : 0, terminated: turn >= 2, truncated: false, info: {} };
    },
    systemPrompt: () => 'Answer ok.',
    async close() {},
  };
};
const agent = { specificationVersion: 'v1', id: 'ok', act: async () => ({ outputs: [{ text: 'ok', finishReason: 'stop' }] }) };

const folder = await mkdtemp(join(tmpdir(), 'saccade-rollout-check-'));
try {
  const store = await openTrajectoryStore({ path: join(folder, 'rollouts.jsonl') });
  const { trajectories } = await runRollouts({ prompts: [{ envId: 'check/Echo-v1', seed: 1 }], groupSize: 3, agent, createEnv, store });
  await store.close();
  assert.equal(trajectories.length, 3);
  const read = [];
  for await (const trajectory of store.read()) read.push(trajectory);
  assert.equal(read.length, 3);
  assert.equal(read[0].totalReward, 2);

  const tokenizer = await createQwen25SequenceTokenizer();
  const sequence = tokenizeTrajectory(read[0], tokenizer);
  assert.equal(sequence.inputIds[0], 151644);
  assert.deepEqual(sequence.endOfTurn.map((position) => sequence.inputIds[position]), [151645, 151645]);
  await writeSequencesParquet(join(folder, 'sequences.parquet'), [sequence]);
  const [record] = await readSequencesParquet(join(folder, 'sequences.parquet'));
  assert.deepEqual(record.input_ids, sequence.inputIds);
} finally {
  await rm(folder, { recursive: true, force: true });
}
console.log('@saccade/rollout installed check passed');
