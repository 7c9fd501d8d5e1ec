import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTestEnvs, TEST_TOOLS, VAGEN_NAMES } from '../test/plug-ins';
import { createEnvRouter, shardOf } from './env/create-env-router';
import { createEnvServer } from './env/create-env-server';
import type { SaccadeServer } from './http/create-http-service';
import { createToolServer } from './tool/create-tool-server';

const run = promisify(execFile);
const script = (name: string) => fileURLToPath(new URL(`../test/python/${name}`, import.meta.url));
const python = async (name: string, ...args: string[]) => JSON.parse((await run('python3', [script(name), ...args], { timeout: 30_000 })).stdout);

let envServer: SaccadeServer;
let toolServer: SaccadeServer;
let shards: SaccadeServer[];
let router: SaccadeServer;

beforeAll(async () => {
  registerTestEnvs();
  envServer = createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES });
  toolServer = createToolServer({ logger: false, tools: TEST_TOOLS });
  shards = [createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES }), createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES })];
  await Promise.all([envServer.listen(0), toolServer.listen(0), ...shards.map((shard) => shard.listen(0))]);
  router = createEnvRouter({ logger: false, workers: shards.map((shard) => shard.url) });
  await router.listen(0);
});

afterAll(async () => {
  await router.close();
  await Promise.all([envServer.close(), toolServer.close(), ...shards.map((shard) => shard.close())]);
});

// The grid envs' format_correct travels as one of VAGEN's turn metrics.
const turnMetrics = (valid: boolean, effective: boolean, success: boolean) => ({ turn_metrics: { action_is_valid: valid, action_is_effective: effective, format_correct: true }, traj_metrics: { success } });
const noMetrics = { turn_metrics: {}, traj_metrics: {} };

describe('Python clients against the real services on loopback', () => {
  it.each([
    ['one env service', () => envServer.url],
    ['the router over two env services', () => router.url],
  ])("VAGEN's BatchEnvClient calls against %s (fl-0 and fl-1 live on different workers behind the router): create, system prompts, reset, steps to the end with finished and unknown ids, reward, close", async (_name, base) => {
    expect([shardOf('fl-0', 2), shardOf('fl-1', 2)]).toEqual([0, 1]);
    const report = await python('vagen_batch_client.py', base());
    expect(report).toEqual({
      health: 'ok',
      create: { success: true },
      system_prompt_last_line: 'The observation should be represented as a grid using the symbols: _ Frozen | O Hole | G Goal | P Player | X Player fell into hole | √ Player on goal.',
      reset: {
        'fl-0': { images: 1, info_keys: ['metrics', 'seed', 'state'] },
        'fl-1': { images: 1, info_keys: ['metrics', 'seed', 'state'] },
      },
      steps: [
        {
          'fl-0': { reward: 0.5, done: false, images: 1, obs_str: null, error: null, llm_raw_response_matches: true, metrics: turnMetrics(true, true, false) },
          'fl-1': { reward: 0.5, done: false, images: 1, obs_str: null, error: null, llm_raw_response_matches: true, metrics: turnMetrics(true, true, false) },
        },
        {
          'fl-0': { reward: 10.5, done: true, images: 1, obs_str: null, error: null, llm_raw_response_matches: true, metrics: turnMetrics(true, true, true) },
          'fl-1': { reward: 10.5, done: true, images: 1, obs_str: null, error: null, llm_raw_response_matches: true, metrics: turnMetrics(true, true, true) },
        },
        {
          'fl-0': { reward: 0, done: true, images: 0, obs_str: '', error: 'Cannot step: its episode ended; reset it first.', llm_raw_response_matches: true, metrics: noMetrics },
          ghost: {
            reward: 0,
            done: true,
            images: 0,
            obs_str: '',
            error: 'Unknown environment id "ghost": create it with POST /environments first (it may also have expired after 1800000 ms idle).',
            llm_raw_response_matches: true,
            metrics: noMetrics,
          },
        },
      ],
      rewards: { 'fl-0': 0, 'fl-1': 0 },
      close: { status: 'success' },
      active_after_close: 0,
    });
  });

  it("verl-tool's agent loop calls: a pixel-reasoner crop, a bad target_image, finish", async () => {
    const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const report = await python('verl_tool_client.py', toolServer.url, `data:image/png;base64,${png.toString('base64')}`);
    expect(report).toEqual({
      turns: [
        // [0.5, 0.2, 0.9, 0.8] padded by 0.1: [0.4, 0.1, 1.0, 0.9] of 200 × 100 → 120 × 80.
        { observation: { obs: '<tool_response>\nHere is the cropped image. (Image Size: 120x80)\n<image>\n</tool_response>', images: ['data:image/png;base64'] }, done: false, valid: true },
        {
          observation: '<tool_response>\nError: "crop_image" failed: Invalid target_image index. It should be an integer between 1 and the number of previous images (2), received 5.\n</tool_response>',
          done: false,
          valid: false,
        },
      ],
      finish: { observation: '', done: true, valid: true },
    });
  });
});
