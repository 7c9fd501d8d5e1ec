// Runs a visual-search episode through the ToolUseWrapper with a scripted agent that only zooms.
// After `pnpm nx build @saccade/tool-zoom`: node examples/zoom-and-read.mjs
import { ToolUseWrapper } from '@saccade/core';
import { VisionQAEnv } from '@saccade/env-vqa';
import { decodeImage, encodePng } from '@saccade/image';
import { zoomTool } from '../dist/index.js';

// An 800 × 600 white image with a tiny green square at (613, 421).
const data = new Uint8Array(800 * 600 * 3).fill(255);
for (let y = 421; y < 427; y++) for (let x = 613; x < 619; x++) data.set([0, 200, 0], (y * 800 + x) * 3);
const image = await encodePng({ data, width: 800, height: 600, channels: 3 });

const env = new ToolUseWrapper(
  new VisionQAEnv({ tasks: [{ id: 'square', dataset: 'demo', taskFamily: 'visual-search', images: [image], question: 'What colour is the small square?', choices: ['Red', 'Green', 'Blue'], answer: 'Green', answerType: 'multiple-choice' }] }),
  { tools: [zoomTool] },
);
console.log(env.systemPrompt(), '\n');
let { observation } = await env.reset({ seed: 0 });
console.log('observation:', observation.text, '\n');

const action = '<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [596, 404, 636, 444], "label": "the square"}}</tool_call>';
console.log('agent:', action);
let step = await env.step(action);
console.log('observation:', step.observation.text, step.info.toolCalls);
const crop = await decodeImage(step.observation.images[0], { channels: 3 });
const centre = [...crop.data.subarray((20 * crop.width + 20) * 3, (20 * crop.width + 21) * 3)];
const letter = 'ABC'[centre.indexOf(Math.max(...centre))];
console.log(`agent: the crop's centre is rgb(${centre}) → <answer>${letter}</answer>`);
step = await env.step(`<answer>${letter}</answer>`);
console.log('result:', { reward: step.reward, terminated: step.terminated, toolCallCount: step.info.toolCallCount });
await env.close();
