// A vision-language model running on this machine (ONNX, through @huggingface/transformers) plays
// saccade/FrozenLake-v1 from images. Run from the repository after
// `pnpm nx run @saccade/agent-transformers:build`:
//
//   node packages/agent-transformers/examples/local-vlm-frozen-lake.mjs [model folder] [dtype]
//
// The model folder is an ONNX export you already have on disk, e.g. HuggingFaceTB/SmolVLM-256M-Instruct
// (config.json, tokenizer files, preprocessor_config.json, processor_config.json, onnx/*.onnx);
// nothing is downloaded. Without a folder, a tiny SmolVLM-shaped model is written to a temporary
// folder and plays: it answers Left or Right from the image's brightness, so the run shows the
// pipeline (processor → vision encoder → decoder → env), not skill.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMessages, makeEnv } from '@saccade/core';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { createTransformersAgent } from '@saccade/agent-transformers';
import { writeTinySmolVlm } from '@saccade/agent-transformers/testing';

const [folderArgument, dtype] = process.argv.slice(2);
const modelPath = folderArgument ?? writeTinySmolVlm(join(mkdtempSync(join(tmpdir(), 'saccade-example-')), 'TinySmolVLM'));
if (folderArgument === undefined) console.log(`no model folder given: using a tiny test model in ${modelPath}`);

registerGridEnvs();
const env = makeEnv(FROZEN_LAKE_ID, { observation: 'vision', format: 'no_think' });
const started = performance.now();
const agent = await createTransformersAgent({ modelPath, ...(dtype ? { dtype } : {}), maxImagePixels: 384 * 384, maxTokens: 48, temperature: 0, stop: ['</answer>'] });
console.log(`loaded ${agent.modelType} from ${agent.modelPath} (${agent.onnxFiles.join(', ')}) in ${Math.round(performance.now() - started)} ms`);

let successes = 0;
const seeds = 5;
for (let seed = 0; seed < seeds; seed++) {
  let { observation } = await env.reset({ seed });
  const history = [];
  for (;;) {
    const messages = buildMessages({ systemPrompt: env.systemPrompt(), history, observation, historyWindow: 2 });
    const { outputs, usage } = await agent.act({ messages });
    const action = outputs[0].text;
    const step = await env.step(action);
    console.log(`seed ${seed}: ${JSON.stringify(action)} (${usage.inputTokens} prompt tokens, ${usage.outputTokens} new) → reward ${step.reward}`);
    history.push({ observation, action });
    observation = step.observation;
    if (step.terminated || step.truncated) {
      if (step.info.metrics?.success === true) successes++;
      break;
    }
  }
}
await agent.dispose();
await env.close();
console.log(`success rate ${successes}/${seeds}`);
