// Writes rollouts into a store until it is killed: the crash test SIGKILLs it mid-write.
// Usage: node crash-writer.mjs <store.jsonl>   (imports the built package: run after the build)
import { openTrajectoryStore, runRollouts } from '../../dist/index.js';

const [path] = process.argv.slice(2);
const store = await openTrajectoryStore({ path });
// Long actions (~200 kB lines), so that a kill often lands inside a write.
const action = 'ok '.repeat(70_000);
const createEnv = () => {
  let turn = 0;
  let seed = 0;
  const observation = () => ({
    text: `turn ${turn} <image>`,
    images: [{ data: new TextEncoder().encode(`image ${seed} ${turn}`), mediaType: 'image/png' }],
  });
  return {
    specificationVersion: 'v1',
    id: 'test/Crash-v1',
    async reset(options = {}) {
      seed = options.seed ?? 0;
      turn = 0;
      return { observation: observation(), info: {} };
    },
    async step() {
      turn++;
      return { observation: observation(), reward: 1, terminated: turn >= 2, truncated: false, info: {} };
    },
    systemPrompt: () => 'Say ok.',
    async close() {},
  };
};
const agent = { specificationVersion: 'v1', id: 'crash', act: async () => ({ outputs: [{ text: action, finishReason: 'stop' }] }) };
process.stdout.write('ready\n');
for (let batch = 0; ; batch++) {
  const prompts = Array.from({ length: 32 }, (_, index) => ({ envId: 'test/Crash-v1', seed: batch * 32 + index }));
  await runRollouts({ prompts, agent, createEnv, store, concurrency: 8, batchId: `batch${batch}` });
}
