import { checkEnv } from '@saccade/core';
import { FrozenLakeEnv } from '@saccade/env-grid';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get } from '../../test/http';
import { registerTestEnvs } from '../../test/plug-ins';
import type { SaccadeServer } from '../http/create-http-service';
import { createEnvServer } from './create-env-server';
import { createRemoteEnv } from './create-remote-env';

let servers: SaccadeServer[];
let urls: string[];

beforeAll(async () => {
  registerTestEnvs();
  servers = [createEnvServer({ logger: false }), createEnvServer({ logger: false })];
  urls = await Promise.all(servers.map((server) => server.listen(0)));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

it('passes checkEnv over HTTP', async () => {
  const report = await checkEnv(() => createRemoteEnv({ urls, envId: 'saccade/FrozenLake-v1' }), {
    seed: 2,
    actions: ['<think>go</think><answer>Right</answer>', '<think>go</think><answer>Down</answer>'],
  });
  expect(report.failures).toEqual([]);
  expect(report.ok).toBe(true);
});

it('plays the same episode as the env in process, on the server its affinity key picks', async () => {
  const local = new FrozenLakeEnv({ maxSolutionSteps: 9 });
  const remote = await createRemoteEnv({ urls, envId: 'saccade/FrozenLake-v1', affinityKey: 'worker-7' });
  const again = await createRemoteEnv({ urls, envId: 'saccade/FrozenLake-v1', affinityKey: 'worker-7' });
  expect(again.url).toBe(remote.url);
  await again.close();
  expect(remote.systemPrompt()).toBe(local.systemPrompt());

  const expected = await local.reset({ seed: 11 });
  const actual = await remote.reset({ seed: 11 });
  expect(actual.observation.text).toBe(expected.observation.text);
  expect(Buffer.from(actual.observation.images[0]!.data).equals(Buffer.from(expected.observation.images[0]!.data))).toBe(true);
  let done = false;
  let total = 0;
  for (let turn = 0; turn < 3 && !done; turn++) {
    const action = local.oracleResponse();
    const want = await local.step(action);
    const got = await remote.step(action);
    expect(got.reward).toBe(want.reward);
    expect(got.info.rewardTerms).toEqual(want.info.rewardTerms);
    total += got.reward;
    done = got.terminated || got.truncated;
  }
  expect(done).toBe(true);
  expect(total).toBeGreaterThanOrEqual(10.5);
  // The session lives on one server only.
  const counts = await Promise.all(urls.map(async (base) => (await get(`${base}/health`)).json.active_sessions));
  expect(counts[urls.indexOf(remote.url)]).toBe(1);
  await remote.close();
  await remote.close();
  expect((await get(`${remote.url}/health`)).json.active_sessions).toBe(0);
});

it('opens a new session on reset when the server dropped the old one, and refuses bad settings', async () => {
  const remote = await createRemoteEnv({ urls: [urls[0]!], envId: 'saccade/FrozenLake-v1' });
  await fetch(`${remote.url}/sessions/${remote.sessionId}`, { method: 'DELETE' });
  const first = remote.sessionId;
  await remote.reset({ seed: 1 });
  expect(remote.sessionId).not.toBe(first);
  await remote.close();
  await expect(createRemoteEnv({ urls: [], envId: 'saccade/FrozenLake-v1' })).rejects.toThrow(/urls/);
  await expect(createRemoteEnv({ urls, envId: 'saccade/Missing-v1' })).rejects.toThrow(/Missing-v1/);
});
