import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, post } from '../../test/http';
import { TEST_TOOLS } from '../../test/plug-ins';
import type { SaccadeServer } from '../http/create-http-service';
import { createToolServer } from './create-tool-server';

let server: SaccadeServer;
let url: string;
let original: string;

const zoom = (box: number[]) => `<think>look closer</think>\n<tool_call>\n{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [${box.join(', ')}], "label": "the red square"}}\n</tool_call>`;

async function imageSize(dataUrl: string): Promise<{ width?: number; height?: number; format?: string }> {
  const metadata = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64')).metadata();
  return { width: metadata.width, height: metadata.height, format: metadata.format };
}

beforeAll(async () => {
  // 200 × 100, white with a red square at (120, 20)–(180, 80).
  const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
    .composite([{ input: await sharp({ create: { width: 60, height: 60, channels: 3, background: '#ff0000' } }).png().toBuffer(), left: 120, top: 20 }])
    .png()
    .toBuffer();
  original = `data:image/png;base64,${png.toString('base64')}`;
  server = createToolServer({ logger: false, bodyLimit: 2 * 1024 * 1024, tools: TEST_TOOLS });
  url = await server.listen(0);
});

afterAll(async () => {
  await server.close();
});

it('runs a multi-turn zoom trajectory with verl-tool shapes and frees it on finish', async () => {
  // Turn 1: a zoom on the original image; the crop comes back as a data URL.
  const first = await post(`${url}/get_observation`, {
    trajectory_ids: ['traj-1'],
    actions: [zoom([110, 10, 190, 90])],
    extra_fields: [{ images: [original], question: 'What colour is the square?' }],
    finish: [false],
    is_last_step: [false],
  });
  expect(first.status).toBe(200);
  expect(first.json.dones).toEqual([false]);
  expect(first.json.valids).toEqual([true]);
  const observation = first.json.observations[0];
  expect(observation.obs).toContain('<tool_response>');
  expect(observation.obs).toContain('<image>');
  expect(observation.image).toMatch(/^data:image\/png;base64,/);
  expect(await imageSize(observation.image)).toMatchObject({ width: 80, height: 80 });

  // Turn 2: a box too small is an observation the model reads, valids false, not an HTTP error.
  const second = await post(`${url}/get_observation`, { trajectory_ids: ['traj-1'], actions: [zoom([0, 0, 10, 10])], extra_fields: [{}], finish: [false], is_last_step: [false] });
  expect(second.status).toBe(200);
  expect(second.json.valids).toEqual([false]);
  expect(second.json.dones).toEqual([false]);
  expect(second.json.observations[0]).toContain('both sides longer than 30');

  // Turn 3: the second zoom still crops from the original, not from the earlier crop.
  const third = await post(`${url}/get_observation`, { trajectory_ids: ['traj-1'], actions: [zoom([0, 0, 200, 100])], finish: [false], is_last_step: [false] });
  expect(await imageSize(third.json.observations[0].image)).toMatchObject({ width: 200, height: 100 });

  // Turn 4: the final answer ends the trajectory.
  const answer = await post(`${url}/get_observation`, { trajectory_ids: ['traj-1'], actions: ['<think>red</think><answer>red</answer>'], finish: [false], is_last_step: [false] });
  expect(answer.json).toEqual({ observations: [''], dones: [true], valids: [true], processing_time_ms: expect.any(Number), queue_time_ms: expect.any(Number) });
  expect((await get(`${url}/health`)).json.active_trajectories).toBe(1);

  const finish = await post(`${url}/get_observation`, { trajectory_ids: ['traj-1'], actions: [''], finish: [true], is_last_step: [true] });
  expect(finish.json).toEqual({ observations: [''], dones: [true], valids: [true], processing_time_ms: expect.any(Number), queue_time_ms: expect.any(Number) });
  expect((await get(`${url}/health`)).json.active_trajectories).toBe(0);
});

it('answers invalid actions as verl-tool does and serves a batch of trajectories', async () => {
  const batch = await post(`${url}/get_observation`, {
    trajectory_ids: ['a', 'b', 'c'],
    actions: ['<tool_call>{"name": "no_such_tool", "arguments": {}}</tool_call>', 'I think it is red.', '<tool_call>{not json</tool_call>'],
    extra_fields: [{ images: [original] }, { images: [original] }, {}],
    finish: [false, false, false],
    is_last_step: [false, false, true],
  });
  expect(batch.status).toBe(200);
  expect(batch.json.valids).toEqual([false, false, false]);
  expect(batch.json.dones).toEqual([false, false, true]);
  expect(batch.json.observations[0]).toContain('unknown tool "no_such_tool"');
  expect(batch.json.observations[1]).toContain('no <tool_call>');
  expect(batch.json.observations[2]).toContain('could not read the tool call');
  await post(`${url}/get_observation`, { trajectory_ids: ['a', 'b', 'c'], actions: ['', '', ''], finish: [true, true, true] });
});

it('refuses malformed requests with 400, oversized ones with 413 and overlapping ones with 409', async () => {
  const lengths = await post(`${url}/get_observation`, { trajectory_ids: ['x', 'y'], actions: ['a'] });
  expect(lengths.status).toBe(400);
  expect(lengths.json.error).toContain('one entry per trajectory id');
  const remote = await post(`${url}/get_observation`, { trajectory_ids: ['x'], actions: [zoom([0, 0, 50, 50])], extra_fields: [{ images: ['https://example.com/a.png'] }] });
  expect(remote.status).toBe(400);
  expect(remote.json.error).toContain('not fetched');
  const notImage = await post(`${url}/get_observation`, { trajectory_ids: ['x'], actions: ['a'], extra_fields: [{ images: ['data:image/png;base64,aGVsbG8='] }] });
  expect(notImage.status).toBe(400);
  const huge = await post(`${url}/get_observation`, { trajectory_ids: ['x'], actions: ['x'.repeat(3 * 1024 * 1024)] });
  expect(huge.status).toBe(413);
  const twice = await post(`${url}/get_observation`, { trajectory_ids: ['x', 'x'], actions: ['a', 'b'] });
  expect(twice.status).toBe(400);

  const body = { trajectory_ids: ['same'], actions: [zoom([110, 10, 190, 90])], extra_fields: [{ images: [original] }] };
  const statuses = (await Promise.all([post(`${url}/get_observation`, body), post(`${url}/get_observation`, body)])).map((response) => response.status).sort();
  expect(statuses).toEqual([200, 409]);
  expect((await get(`${url}/health`)).status).toBe(200);
});
