// Plays one episode of each grid env with the oracle and writes every frame as a PNG.
//   pnpm --filter @saccade/env-grid build && node packages/envs/grid/examples/play.mjs [seed] [outDir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEnv } from '@saccade/core';
import { FROZEN_LAKE_ID, GridEnv, SOKOBAN_ID, oracleResponse, registerGridEnvs } from '../dist/index.js';

const seed = Number(process.argv[2] ?? 7);
const outDir = process.argv[3] ?? 'grid-frames';
mkdirSync(outDir, { recursive: true });
registerGridEnvs();

/** makeEnv wraps the env (turn limit, call order); the oracle reads the inner env's state. */
const unwrap = (env) => (env instanceof GridEnv ? env : unwrap(env.env));

for (const id of [FROZEN_LAKE_ID, SOKOBAN_ID]) {
  const env = makeEnv(id, { observation: 'both', format: 'grounding_worldmodeling', visualReasoningReward: true, cellSize: 32 });
  const name = id.split('/')[1];
  let { observation } = await env.reset({ seed });
  console.log(`${id} seed ${seed}\n${observation.text}\n`);
  for (let turn = 0; ; turn++) {
    writeFileSync(join(outDir, `${name}-${turn}.png`), observation.images[0].data);
    const response = oracleResponse(unwrap(env));
    const result = await env.step(response);
    console.log(`turn ${turn + 1}: ${response}\nreward ${result.reward} ${JSON.stringify(result.info.rewardTerms)}\n${result.observation.text}\n`);
    observation = result.observation;
    if (result.terminated || result.truncated) {
      writeFileSync(join(outDir, `${name}-${turn + 1}.png`), observation.images[0].data);
      console.log(`${id}: ${result.info.metrics.success ? 'solved' : 'not solved'} in ${turn + 1} turn(s)\n`);
      break;
    }
  }
  await env.close();
}
console.log(`frames written to ${outDir}/`);
