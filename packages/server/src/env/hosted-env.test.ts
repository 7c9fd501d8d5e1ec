import { registerEnv, registerTool, unregisterEnv } from '@saccade/core';
import { createEchoTool, GuessNumberEnv } from '@saccade/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHostedEnv } from './hosted-env';

// An env that runs the echo tool in a loop of its own, as the grounded envs run search_coordinate.
const OWN_LOOP_ID = 'test/OwnToolLoop-v1';
beforeAll(() => {
  registerTool(createEchoTool(), { override: true });
  registerEnv({ id: OWN_LOOP_ID, create: () => new GuessNumberEnv(), usesTools: ['echo'] }, { override: true });
});
afterAll(() => unregisterEnv(OWN_LOOP_ID));

const config = { envId: OWN_LOOP_ID, options: {}, maxTurns: undefined, imagePlaceholder: '<image>', ignoredKeys: [] };

it('refuses a config whose tools the env calls in its own tool loop; without them the env is made', async () => {
  expect(() => createHostedEnv({ ...config, tools: ['echo'] })).toThrow(`tools: ${OWN_LOOP_ID} calls echo in its own tool loop; expected tools it does not call itself, received ["echo"]`);
  const plain = createHostedEnv(config);
  expect([plain.envId, plain.env.id]).toEqual([OWN_LOOP_ID, 'test/GuessNumber-v1']);
  await plain.env.close();
});
