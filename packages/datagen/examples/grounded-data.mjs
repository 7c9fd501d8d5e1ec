// ViGoRL's grounded reasoning end to end, on procedural visual-search tasks with a scripted noisy agent:
// a multi-turn episode (point crops, the image budget, the forced final answer), the reward sets,
// MCTS data generation (trees + linearised chains) and SFT of the built-in model on the file, through
// the trainers' trainSft. After `pnpm nx build @saccade/datagen`: node examples/grounded-data.mjs
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAnswerChecker, registerTool } from '@saccade/core';
import { GROUNDED_VISUAL_SEARCH_ID, GroundedSearchEnv, registerGroundingEnvs, scoreGroundedEpisode } from '@saccade/env-grounded';
import { createVisualSearchSource, registerProceduralTaskSources } from '@saccade/env-procedural';
import { VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';
import { trainSft } from '@saccade/trainers';
import { createNoisyGroundingAgent, generateSftData, playGroundedEpisode, readSftFile, sftDemonstrations, TaskLookup } from '../dist/index.js';

const source = createVisualSearchSource({ split: 'test' });
const tasks = [await source.get(0), await source.get(1)];
const lookup = await TaskLookup.fromTasks(tasks);
const agent = createNoisyGroundingAgent({ lookup, seed: 1 });

// 1. One multi-turn episode: crops of 672 px around each point, at most 4, then the answer. The env
// crops with the registered point crop, made for each task's preset by its factory.
registerTool(pointCropTool, { create: createPointCropTool });
const env = new GroundedSearchEnv({ source });
const played = await playGroundedEpisode(env, agent, { taskIndex: 0 });
console.log(`task: ${tasks[0].question} (answer ${tasks[0].answer})`);
for (const response of played.responses) console.log('  agent:', response.replaceAll('\n', ' '));
console.log('  reward', played.final.reward, played.final.info.rewardTerms, '\n');

// 2. The reward sets on hand-written responses.
const target = tasks[0];
const checker = getAnswerChecker('V*Bench');
const imageSize = { width: 2048, height: 2048 };
const { x, y } = target.metadata.target;
const letter = String.fromCharCode(65 + target.metadata.answer_index);
for (const [rewardSet, responses] of [
  ['vigorl-single-turn', [`<think>\nThe ${target.metadata.target.shape} is at (${x}, ${y}).\n</think>\n<answer>${letter}</answer>`]],
  ['vigorl-multi-turn', [`<think>Look there.</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [${x}, ${y}]}}\n</tool_call>`, `<think>Found it.</think>\n<answer>${letter}</answer>`]],
  ['deepeyes', [`<think>Found it without looking closer.</think>\n<answer>${letter}</answer>`]],
]) {
  const { reward, terms } = scoreGroundedEpisode(rewardSet, { responses, imageSize, target, answerType: 'multiple-choice', checker });
  console.log(`${rewardSet}: ${reward}`, terms);
}

// 3. MCTS over thought steps: a tree file per task, chains with "Wait, this seems off…" in the SFT file.
const folder = mkdtempSync(join(tmpdir(), 'saccade-grounding-example-'));
const output = join(folder, 'sft.jsonl');
const result = await generateSftData({ method: 'mcts', source, taskIndices: [0, 1], agent, output, treesFolder: join(folder, 'trees'), maxPerTask: 4 });
console.log(`\nMCTS: ${result.generations} generations, ${result.records} examples in ${output}; trees: ${readdirSync(join(folder, 'trees')).join(', ')}`);
const records = await readSftFile(output);
const chainOf = (record) => record.messages.at(-1).content;
const backtracking = records.find((record) => record.metadata?.backtracks === 1 && chainOf(record).includes('is near')) ?? records[0];
console.log(chainOf(backtracking), '\n');

// 4. SFT of the built-in model (tiny preset) on the file: the same trainSft that trains on the oracle's
// episodes, here with the file as its demonstrations and one held-out episode of the grounded env.
await initTensor();
// saccade/GroundedVisualSearch-v1 builds its tasks with env-procedural's registered visual-search source.
registerProceduralTaskSources();
registerGroundingEnvs();
const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { maxSequenceLength: 1024 } });
const losses = [];
await trainSft(
  model,
  {
    envId: GROUNDED_VISUAL_SEARCH_ID,
    envOptions: { split: 'test' },
    oracle: false,
    demonstrations: await sftDemonstrations([output]),
    trainSeeds: { start: 0, count: 2 },
    evalSeeds: { start: 100, count: 1 },
    maxTurns: 1,
    view: 'full',
    maxTokens: 8,
    steps: 20,
    batchSize: 4,
    learningRate: 5e-3,
    warmupSteps: 0,
    evalEvery: 100,
    seed: 0,
  },
  (event) => {
    if (event.type === 'update-end') losses.push(event.metrics.loss);
  },
);
console.log(`SFT on ${records.length} records: loss ${losses[0].toFixed(3)} → ${losses.at(-1).toFixed(3)} in ${losses.length} steps`);
model.dispose();
