// Writes a tiny task file (two bar charts rendered from SVG), then plays one episode per task with
// reflection: a scripted agent answers wrong first and right after the feedback.
//   pnpm --filter @saccade/env-vqa build && node packages/envs/vqa/examples/answer-charts.mjs [outDir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAnswerChecker, makeEnv } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import { VISION_QA_ID, readTaskFile, registerVqaEnvs, writeTaskFile } from '../dist/index.js';

const outDir = process.argv[2] ?? 'vqa-example';
mkdirSync(join(outDir, 'images'), { recursive: true });

/** A bar chart as SVG: one bar per value, labelled. */
function barChart(values) {
  const bars = values
    .map((value, index) => {
      const x = 20 + index * 50;
      return `<rect x="${x}" y="${180 - value * 3}" width="36" height="${value * 3}" fill="#4a7bd0"/>` +
        `<text x="${x + 18}" y="${172 - value * 3}" font-size="12" text-anchor="middle" font-family="DejaVu Sans">${value}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="200"><rect width="240" height="200" fill="white"/>${bars}</svg>`;
}

const charts = [[12, 45, 30, 8], [5, 17, 22, 40]];
const tasks = [];
for (const [index, values] of charts.entries()) {
  const image = `images/chart-${index}.png`;
  writeFileSync(join(outDir, image), (await renderSvg(barChart(values))).data);
  tasks.push({
    id: `bars-${index}`,
    dataset: 'ChartQA',
    taskFamily: 'chart',
    images: [image], // relative to the task file
    question: 'What is the value of the tallest bar?',
    answer: String(Math.max(...values)),
    answerType: 'number',
  });
}
const taskFile = join(outDir, 'tasks.jsonl');
console.log(`wrote ${await writeTaskFile(taskFile, tasks)} tasks to ${taskFile}`);
for await (const task of readTaskFile(taskFile)) console.log(`  ${task.id}: ${task.question} → ${task.answer}`);

// The checkers work on their own too.
console.log('ChartQA says 46 for 45 is', getAnswerChecker('ChartQA')('46', { answer: '45' }));

registerVqaEnvs();
const env = makeEnv(VISION_QA_ID, { taskFile, maxAttempts: 3 });
for (let seed = 0; seed < tasks.length; seed++) {
  const { observation, info } = await env.reset({ seed });
  console.log(`\n[${info.taskId}] ${observation.text.replaceAll('\n', ' | ')} (${observation.images.length} image)`);
  // A scripted agent: too low first, then the right value.
  const answers = [`The tallest bar looks like 30.\n<answer>30</answer>`, `Looking again, it is ${tasks[seed].answer}.\n<answer>${tasks[seed].answer}</answer>`];
  for (const answer of answers) {
    const result = await env.step(answer);
    console.log(`agent: ${answer.split('\n')[1]}\nenv (reward ${result.reward}, ${JSON.stringify(result.info.rewardTerms)}): ${result.observation.text}`);
    if (result.terminated || result.truncated) break;
  }
}
await env.close();
