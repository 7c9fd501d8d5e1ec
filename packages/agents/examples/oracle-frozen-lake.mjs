// The oracle agent plays saccade/FrozenLake-v1 on 20 seeds and prints each episode's outcome.
// Run from the repository after `pnpm nx run @saccade/agents:build`:
//   node packages/agents/examples/oracle-frozen-lake.mjs
import { makeEnv } from '@saccade/core';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { buildMessages, createOracleAgent } from '@saccade/agents';

registerGridEnvs();
const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'free_think' });
// The grid envs carry oracleResponse() (their BFS solver); the agent finds it under the wrappers.
const agent = createOracleAgent({ env });

let successes = 0;
for (let seed = 0; seed < 20; seed++) {
  let { observation } = await env.reset({ seed });
  let totalReward = 0;
  for (;;) {
    const messages = buildMessages({ systemPrompt: env.systemPrompt(), observation });
    const { outputs } = await agent.act({ messages });
    const step = await env.step(outputs[0].text);
    totalReward += step.reward;
    observation = step.observation;
    if (step.terminated || step.truncated) {
      const success = step.info.metrics?.success === true;
      if (success) successes++;
      console.log(`seed ${seed}: ${success ? 'reached the goal' : 'failed'}, reward ${totalReward}`);
      break;
    }
  }
}
await env.close();
console.log(`success rate ${successes}/20`);
