// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDataset, listDatasetAdapters } from '@saccade/data';

assert.equal(listDatasetAdapters().length, 24);
const folder = await mkdtemp(join(tmpdir(), 'saccade-data-check-'));
try {
  // A 1×1 PNG.
  await writeFile(join(folder, 'a.png'), Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
  await writeFile(join(folder, 'samples.json'), JSON.stringify([{ id: 'x', dataset: 'ChartQA', image_path: 'a.png', question: 'Q?', answer: '45', choices: null, task: 'chart' }]));
  const summary = await convertDataset({ dataset: 'vlmgym', input: join(folder, 'samples.json'), output: join(folder, 'tasks.jsonl') });
  assert.equal(summary.written, 1);
  assert.deepEqual(JSON.parse(await readFile(join(folder, 'tasks.jsonl'), 'utf8')), { id: 'x', dataset: 'ChartQA', taskFamily: 'chart', images: ['a.png'], question: 'Q?', answer: '45', answerType: 'number' });
} finally {
  await rm(folder, { recursive: true, force: true });
}
console.log('@saccade/data installed check passed');
