import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { post } from '../../test/http';
import type { SaccadeServer } from '../http/create-http-service';
import { createRewardServer } from './create-reward-server';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let server: SaccadeServer;
let url: string;

beforeAll(async () => {
  server = createRewardServer({ logger: false });
  url = await server.listen(0);
});

afterAll(async () => {
  await server.close();
});

it('scores a batch with the data source checker, reading the answer as VISTA-Gym does', async () => {
  const response = await post(`${url}/score`, {
    items: [
      { data_source: 'ChartQA', solution_str: '<think>sum</think><answer>45%</answer>', ground_truth: '0.45', extra_info: { target: '{"answer": "0.45"}' } },
      { data_source: 'ChartQA', solution_str: 'no idea', ground_truth: '0.45' },
      { data_source: 'unknown-set', solution_str: 'Answer: 12', ground_truth: '12.0', extra_info: { answer_type: 'numeric' } },
    ],
  });
  expect(response.status).toBe(200);
  expect(response.json.scores.map((score: { score: number; correct: boolean; answer: string | null; checker: string }) => [score.score, score.correct, score.answer, score.checker])).toEqual([
    [1, true, '45%', 'ChartQA'],
    [0, false, null, 'ChartQA'],
    [1, true, '12', 'numeric'],
  ]);
});

it('refuses a data source with no checker and a malformed target, naming the item', async () => {
  const unknown = await post(`${url}/score`, { items: [{ data_source: 'ChartQA', solution_str: 'x', ground_truth: '1' }, { data_source: 'nowhere', solution_str: 'x', ground_truth: '1' }] });
  expect(unknown.status).toBe(400);
  expect(unknown.json.error).toMatch(/^items\[1\]: no answer checker for data_source "nowhere"; expected one of .*ChartQA/);
  const badTarget = await post(`${url}/score`, { items: [{ data_source: 'ChartQA', solution_str: 'x', extra_info: { target: '{not json' } }] });
  expect(badTarget.status).toBe(400);
  expect(badTarget.json.error).toContain('items[0].extra_info.target: expected JSON');
});

it("serves verl's custom_reward_function (python/saccade_reward.py) called as verl's naive and batch reward managers call it", async () => {
  const { stdout } = await run('python3', [here('../../test/python/verl_reward_client.py'), here('../../python/saccade_reward.py')], { env: { ...process.env, SACCADE_REWARD_URL: url }, timeout: 30_000 });
  const report = JSON.parse(stdout);
  expect(report.naive).toEqual([1, 1, 0, 1]);
  expect(report.batch).toEqual([1, 1, 0, 1]);
  expect(report.refused).toMatch(/^saccade reward service at http:\/\/127\.0\.0\.1:\d+ refused the request \(400\): .*no answer checker for data_source \\"nowhere\\"/);
});
