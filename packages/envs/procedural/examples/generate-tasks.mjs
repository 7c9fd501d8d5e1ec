// Generates a few tasks of each procedural generator, writes their images, and plays one episode of
// each registered env with the oracle's answer (and one SVG reconstruction episode).
//   pnpm --filter @saccade/env-procedural build && node packages/envs/procedural/examples/generate-tasks.mjs [outDir] [difficulty]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEnv, oracleAnswer } from '@saccade/core';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { PROCEDURAL_VQA_ENVS, ProceduralSource, SVG_RECONSTRUCTION_ID, registerProceduralEnvs } from '../dist/index.js';

const outDir = process.argv[2] ?? 'procedural-tasks';
const difficulty = Number(process.argv[3] ?? 0.5);
mkdirSync(outDir, { recursive: true });
registerVqaEnvs(); // the VQA envs play their generated tasks in saccade/VisionQA-v1, taken from the registry
registerProceduralEnvs();

for (const { id, generator } of PROCEDURAL_VQA_ENVS) {
  // The source the env builds from the same options; here only to know the oracle's answer and save the image.
  const source = new ProceduralSource(generator, { difficulty, split: 'test' });
  const env = makeEnv(id, { difficulty, split: 'test' });
  for (const seed of [0, 1]) {
    const task = await source.get(seed);
    writeFileSync(join(outDir, `${task.id}.png`), task.images[0].data);
    const { observation } = await env.reset({ seed });
    const result = await env.step(`<answer>${oracleAnswer(task)}</answer>`);
    console.log(`${id} seed ${seed} (${task.id}.png)\n  ${observation.text.split('\n').slice(1, -2).join(' | ')}\n  answer ${JSON.stringify(task.answer)} → reward ${result.reward}`);
  }
  await env.close();
}

const svg = makeEnv(SVG_RECONSTRUCTION_ID, { difficulty });
const unwrap = (env) => (typeof env.oracleResponse === 'function' ? env : unwrap(env.env));
await svg.reset({ seed: 0 });
const blank = await svg.step('<answer><svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"/></answer>');
console.log(`${SVG_RECONSTRUCTION_ID}: a blank SVG scores ${JSON.stringify(blank.info.rewardTerms)}`);
const oracle = await svg.step(unwrap(svg).oracleResponse());
console.log(`${SVG_RECONSTRUCTION_ID}: the target's own SVG scores ${JSON.stringify(oracle.info.rewardTerms)}, terminated ${oracle.terminated}`);
await svg.close();
console.log(`images written to ${outDir}/`);
