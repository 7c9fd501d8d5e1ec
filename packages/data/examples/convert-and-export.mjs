// Writes two tiny datasets in their published layouts (ChartQA: test/test_human.json + test/png/;
// ScreenSpot: screenspot_web.json + screenspot_imgs/), converts them to Saccade task files, exports
// one to verl's Parquet layout, and plays each task with the oracle in the VisionQA env.
//   pnpm --filter @saccade/data build && node packages/data/examples/convert-and-export.mjs [outDir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskFileSource } from '@saccade/core';
import { VisionQAEnv } from '@saccade/env-vqa';
import { renderSvg } from '@saccade/image';
import { convertDataset, exportVerlParquet } from '../dist/index.js';

const outDir = process.argv[2] ?? 'data-example';
const svg = (body, width = 240, height = 160) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="white"/>${body}</svg>`;
const write = async (file, body, width, height) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, (await renderSvg(svg(body, width, height))).data);
};

// ChartQA, as published: "ChartQA Dataset/test/test_human.json" and its png/ folder.
const chartqa = join(outDir, 'ChartQA Dataset', 'test');
const bars = [12, 45, 30].map((value, index) => `<rect x="${20 + index * 60}" y="${150 - value * 3}" width="40" height="${value * 3}" fill="#4a7bd0"/>`).join('');
await write(join(chartqa, 'png', 'bars_1.png'), bars);
mkdirSync(chartqa, { recursive: true });
writeFileSync(join(chartqa, 'test_human.json'), JSON.stringify([
  { imgname: 'bars_1.png', query: 'What is the value of the tallest bar?', label: '45' },
  { imgname: 'bars_1.png', query: 'Is the first bar the shortest?', label: 'Yes' },
  { imgname: 'bars_2.png', query: 'What is the lowest value?', label: '3' }, // its image is missing
]));

// ScreenSpot, as SeeClick publishes it: screenspot_web.json and screenspot_imgs/.
const screenspot = join(outDir, 'ScreenSpot');
await write(join(screenspot, 'screenspot_imgs', 'web_1.png'), '<rect x="150" y="10" width="60" height="24" fill="#2a2"/><text x="158" y="27" font-size="14" font-family="DejaVu Sans">Search</text>');
writeFileSync(join(screenspot, 'screenspot_web.json'), JSON.stringify([{ img_filename: 'web_1.png', bbox: [150, 10, 60, 24], instruction: 'search button', data_type: 'text', data_source: 'shop' }]));

const tasks = join(outDir, 'tasks');
const chart = await convertDataset({ dataset: 'chartqa', input: join(chartqa, 'test_human.json'), output: join(tasks, 'chartqa.jsonl'), skipInvalid: true, onInvalid: (error) => console.log(`skipped: ${error.message}`) });
console.log(`ChartQA: read ${chart.read}, wrote ${chart.written}, skipped ${chart.skipped} → ${chart.output}`);
const screen = await convertDataset({ dataset: 'screenspot', input: join(screenspot, 'screenspot_web.json'), output: join(tasks, 'screenspot.jsonl') });
console.log(`ScreenSpot: read ${screen.read}, wrote ${screen.written} → ${screen.output}`);

const exported = await exportVerlParquet({ input: join(tasks, 'chartqa.jsonl'), output: join(outDir, 'verl', 'chartqa-test.parquet'), split: 'test' });
console.log(`verl: ${exported.written} rows → ${exported.output}`);

for (const file of ['chartqa.jsonl', 'screenspot.jsonl']) {
  const env = new VisionQAEnv({ source: new TaskFileSource(join(tasks, file)) });
  for (let seed = 0; seed < (file === 'chartqa.jsonl' ? chart.written : screen.written); seed++) {
    const { info } = await env.reset({ seed });
    const answer = env.oracleResponse();
    const result = await env.step(answer);
    console.log(`[${info.dataset} ${info.taskId}] oracle ${JSON.stringify(answer)} → reward ${result.reward} (${result.info.check.detail})`);
  }
  await env.close();
}
