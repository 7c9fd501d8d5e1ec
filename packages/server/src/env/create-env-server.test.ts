import { registerEnv, unregisterEnv } from '@saccade/core';
import { FrozenLakeEnv } from '@saccade/env-grid';
import type { Env } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, request } from '../../test/http';
import { registerTestEnvs, VAGEN_NAMES } from '../../test/plug-ins';
import type { SaccadeServer } from '../http/create-http-service';
import { createEnvServer } from './create-env-server';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

/** A text env whose step takes `delayMs`: lets two requests overlap, or one outlast its deadline. */
function slowEnv(delayMs: number): Env {
  return {
    specificationVersion: 'v1',
    id: 'test/Slow-v1',
    reset: async () => ({ observation: { text: 'wait', images: [] }, info: {} }),
    step: () => new Promise((resolve) => setTimeout(() => resolve({ observation: { text: 'ok', images: [] }, reward: 1, terminated: false, truncated: false, info: {} }), delayMs)),
    systemPrompt: () => 'Wait.',
    close: async () => {},
  };
}

let server: SaccadeServer;
let url: string;

beforeAll(async () => {
  registerEnv({ id: 'test/Slow-v1', create: (options: { delayMs?: number }) => slowEnv(options.delayMs ?? 150) }, { override: true });
  registerTestEnvs();
  server = createEnvServer({ logger: false, bodyLimit: 256 * 1024, vagenEnvNames: VAGEN_NAMES });
  url = await server.listen(0);
});

afterAll(async () => {
  await server.close();
  unregisterEnv('test/Slow-v1');
});

describe('VAGEN batch protocol', () => {
  it('plays full FrozenLake episodes with VAGEN shapes, matching the same env in process', async () => {
    const config = { render_mode: 'vision', max_actions_per_step: 3, action_sep: ',', prompt_format: 'free_think', format_reward: 0.5, is_slippery: false, size: 4, p: 0.8, special_token_list: ['<think>'] };
    const ids = ['lake-0', 'lake-1', 'lake-2'];
    const created = await post(`${url}/environments`, { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'frozenlake', env_config: config, seed: 0 }])) });
    expect(created).toEqual({ status: 200, json: { success: true } });

    const prompts = await post(`${url}/batch/system_prompt`, { env_ids: ids });
    expect(prompts.status).toBe(200);
    expect(prompts.json.system_prompts['lake-0']).toContain('FrozenLake');

    const seeds = { 'lake-0': 3, 'lake-1': 4, 'lake-2': 5 };
    const reset = await post(`${url}/batch/reset`, { ids2seeds: seeds });
    expect(reset.status).toBe(200);
    const locals = new Map<string, FrozenLakeEnv>();
    for (const id of ids) {
      const [observation, info] = reset.json.results[id];
      expect(observation.obs_str).toContain('<image>');
      const images = observation.multi_modal_data['<image>'];
      expect(images).toHaveLength(1);
      expect([...Buffer.from(images[0].__pil_image__, 'base64').subarray(0, 4)]).toEqual(PNG_SIGNATURE);
      expect(info.metrics).toEqual({ turn_metrics: {}, traj_metrics: {} });
      // The same env in process, for the oracle's answers and the expected results.
      const local = new FrozenLakeEnv({ maxSolutionSteps: 9 });
      const localReset = await local.reset({ seed: seeds[id as keyof typeof seeds] });
      expect(observation.obs_str).toBe(localReset.observation.text);
      locals.set(id, local);
    }

    const active = new Set(ids);
    const returns = new Map(ids.map((id) => [id, 0]));
    for (let turn = 0; turn < 5 && active.size > 0; turn++) {
      const actions = Object.fromEntries([...active].map((id) => [id, locals.get(id)!.oracleResponse()]));
      const step = await post(`${url}/batch/step`, { ids2actions: actions });
      expect(step.status).toBe(200);
      for (const id of [...active]) {
        const [observation, reward, done, info] = step.json.results[id];
        const expected = await locals.get(id)!.step(actions[id]!);
        expect(reward).toBe(expected.reward);
        expect(done).toBe(expected.terminated || expected.truncated);
        expect(observation.obs_str).toBe(expected.observation.text);
        expect(info.metrics).toEqual({
          turn_metrics: { action_is_valid: true, action_is_effective: true, format_correct: true },
          traj_metrics: { success: expected.info.metrics?.success },
        });
        returns.set(id, returns.get(id)! + reward);
        if (done) active.delete(id);
      }
    }
    expect(active.size).toBe(0);
    for (const id of ids) expect(returns.get(id)!).toBeGreaterThanOrEqual(10.5);

    // A finished episode is answered in its own result, as VAGEN's service does: done, info.error.
    const after = await post(`${url}/batch/step`, { ids2actions: { 'lake-0': '<think></think><answer>Left</answer>' } });
    expect(after.status).toBe(200);
    expect(after.json.results['lake-0']).toEqual([
      { obs_str: '' },
      0,
      true,
      { error: 'Cannot step: its episode ended; reset it first.', llm_raw_response: '<think></think><answer>Left</answer>', metrics: { turn_metrics: {}, traj_metrics: {} } },
    ]);

    expect(await post(`${url}/batch/reward`, { env_ids: ids })).toEqual({ status: 200, json: { rewards: { 'lake-0': 0, 'lake-1': 0, 'lake-2': 0 } } });
    expect((await get(`${url}/health`)).json).toMatchObject({ status: 'ok', active_environments: 3 });
    expect(await post(`${url}/batch/close`, { env_ids: [...ids, 'never-made'] })).toEqual({ status: 200, json: { status: 'success' } });
    expect((await get(`${url}/health`)).json.active_environments).toBe(0);
  });

  it('serves text mode, a custom image placeholder, Sokoban and Saccade ids', async () => {
    const created = await post(`${url}/environments`, {
      ids2configs: {
        text: { env_name: 'frozenlake', env_config: { render_mode: 'text' } },
        placeholder: { env_name: 'sokoban', env_config: { dim_room: [6, 6], num_boxes: 1, image_placeholder: '<img>', max_steps: 100 } },
        byId: { env_name: 'saccade/FrozenLake-v1', env_config: { observation: 'both' } },
      },
    });
    expect(created.status).toBe(200);
    const reset = await post(`${url}/batch/reset`, { ids2seeds: { text: 1, placeholder: 1, byId: null } });
    const [text] = reset.json.results.text;
    expect(text.multi_modal_data).toBeUndefined();
    expect(text.obs_str).toMatch(/P/);
    const [placeholder] = reset.json.results.placeholder;
    expect(placeholder.obs_str).toContain('<img>');
    expect(placeholder.obs_str).not.toContain('<image>');
    expect(placeholder.multi_modal_data['<img>']).toHaveLength(1);
    expect(reset.json.results.byId[0].multi_modal_data['<image>']).toHaveLength(1);
    await post(`${url}/batch/close`, { env_ids: ['text', 'placeholder', 'byId'] });
  });

  it('answers malformed bodies, unknown names and ids, and oversized payloads with 4xx, and keeps serving', async () => {
    const badJson = await request(`${url}/batch/reset`, 'POST', undefined, { raw: '{"ids2seeds": ' });
    expect(badJson.status).toBe(400);
    expect(badJson.json.error).toMatch(/JSON/);

    const missing = await post(`${url}/batch/reset`, { seeds: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('ids2seeds');

    const wrongType = await post(`${url}/batch/step`, { ids2actions: { a: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error).toContain('ids2actions.a');

    const unknownName = await post(`${url}/environments`, { ids2configs: { a: { env_name: 'frozen_lake', env_config: {} } } });
    expect(unknownName.status).toBe(400);
    expect(unknownName.json.error).toContain('Unknown env_name "frozen_lake"');

    const badConfig = await post(`${url}/environments`, { ids2configs: { a: { env_name: 'sokoban', env_config: { dim_room: 6 } } } });
    expect(badConfig.status).toBe(400);
    expect(badConfig.json.error).toContain('dim_room');

    const unknownId = await post(`${url}/batch/step`, { ids2actions: { nobody: 'Up' } });
    expect(unknownId.status).toBe(200);
    expect(unknownId.json.results.nobody[2]).toBe(true);
    expect(unknownId.json.results.nobody[3].error).toContain('Unknown environment id "nobody"');

    await post(`${url}/environments`, { ids2configs: { fresh: { env_name: 'frozenlake', env_config: {} } } });
    const beforeReset = await post(`${url}/batch/step`, { ids2actions: { fresh: 'Up' } });
    expect(beforeReset.status).toBe(200);
    expect(beforeReset.json.results.fresh[3].error).toBe('Cannot step: it was never reset; reset it first.');

    const huge = await post(`${url}/batch/step`, { ids2actions: { fresh: 'x'.repeat(300 * 1024) } });
    expect(huge.status).toBe(413);

    expect((await get(`${url}/nowhere`)).status).toBe(404);
    expect((await get(`${url}/health`)).status).toBe(200);
    await post(`${url}/batch/close`, { env_ids: ['fresh'] });
  });

  it('answers an id busy with another request in its own result and serves the rest of the batch', async () => {
    await post(`${url}/environments`, { ids2configs: { slow: { env_name: 'test/Slow-v1', env_config: { delayMs: 200 } }, other: { env_name: 'test/Slow-v1', env_config: { delayMs: 0 } } } });
    await post(`${url}/batch/reset`, { ids2seeds: { slow: 0, other: 0 } });
    const [first, second] = await Promise.all([
      post(`${url}/batch/step`, { ids2actions: { slow: 'a' } }),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => post(`${url}/batch/step`, { ids2actions: { other: 'b', slow: 'c' } })),
    ]);
    expect(first.status).toBe(200);
    expect(first.json.results.slow[1]).toBe(1);
    expect(second.status).toBe(200);
    expect(second.json.results.slow[3].error).toContain('"slow" is busy');
    expect(second.json.results.other).toEqual([{ obs_str: 'ok' }, 1, false, { metrics: { turn_metrics: {}, traj_metrics: {} }, terminated: false, truncated: false, llm_raw_response: 'b' }]);
    await post(`${url}/batch/close`, { env_ids: ['slow', 'other'] });
  });
});

describe('limits', () => {
  it('expires idle envs and answers a request past its deadline with 504', async () => {
    const limited = createEnvServer({ logger: false, idleTimeoutMs: 100, requestTimeoutMs: 50, });
    const base = await limited.listen(0);
    try {
      await post(`${base}/environments`, { ids2configs: { slow: { env_name: 'test/Slow-v1', env_config: { delayMs: 150 } } } });
      await post(`${base}/batch/reset`, { ids2seeds: { slow: 0 } });
      const late = await post(`${base}/batch/step`, { ids2actions: { slow: 'a' } });
      expect(late.status).toBe(504);
      expect(late.json.error).toContain('50 ms');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const expired = await post(`${base}/batch/step`, { ids2actions: { slow: 'a' } });
      expect(expired.status).toBe(200);
      expect(expired.json.results.slow[3].error).toContain('expired');
    } finally {
      await limited.close();
    }
  });
});

describe('session API', () => {
  it('creates, resets, steps and deletes a session; unknown sessions are 404', async () => {
    const created = await post(`${url}/sessions`, { envId: 'saccade/FrozenLake-v1', options: { observation: 'text' } });
    expect(created.status).toBe(201);
    const { sessionId } = created.json;
    const reset = await post(`${url}/sessions/${sessionId}/reset`, { seed: 7 });
    expect(reset.status).toBe(200);
    expect(reset.json.observation.images).toEqual([]);
    const step = await post(`${url}/sessions/${sessionId}/step`, { action: 'garbage' });
    expect(step.status).toBe(200);
    expect(step.json.info.metrics.action_is_valid).toBe(false);
    expect((await request(`${url}/sessions/${sessionId}`, 'DELETE')).json).toEqual({ closed: true });
    expect((await post(`${url}/sessions/${sessionId}/step`, { action: 'x' })).status).toBe(404);
    expect((await post(`${url}/sessions`, { envId: 'saccade/Nope-v1' })).status).toBe(400);
  });
});
