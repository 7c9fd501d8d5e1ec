import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeMultipartBody, encodeMultipartBody, makeEnv, registerTool, ToolUseWrapper } from '@saccade/core';
import { FROZEN_LAKE_ID, SOKOBAN_ID } from '@saccade/env-grid';
import { VISUAL_SEARCH_ID } from '@saccade/env-procedural';
import { registerVqaEnvs, VISION_QA_ID } from '@saccade/env-vqa';
import type { Env, EnvInfo, ImageData, Observation } from '@saccade/spec';
import { zoomTool } from '@saccade/tool-zoom';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPython } from '../test/python';
import { registerTestEnvs, VAGEN_NAMES } from '../test/plug-ins';
import { createEnvRouter } from './env/create-env-router';
import { createEnvServer } from './env/create-env-server';
import { toGymInfo } from './env/vagen-serialisation';
import type { SaccadeServer } from './http/create-http-service';

const run = promisify(execFile);
const found = await findPython(['httpx', 'PIL', 'fastapi']);
if ('skip' in found) console.warn(`VAGEN main's GymImageEnvClient tests ${found.skip}`);
const python = 'python' in found ? found.python : 'python3';
const script = fileURLToPath(new URL('../test/python/vagen_main_play.py', import.meta.url));
const API_KEY = 'k-3f9a';

interface ImageDigest {
  size: [number, number];
  mode: string;
  sha256: string;
}
interface Played {
  obs_str: string;
  images: ImageDigest[];
}
interface EpisodeReport {
  error?: string;
  reset?: Played & { info: Record<string, unknown> };
  system_prompt?: string;
  steps?: (Played & { reward: number; done: boolean; info: Record<string, unknown> })[];
  reset_again?: Played & { info: Record<string, unknown> };
  steps_again?: EpisodeReport['steps'];
}
interface Episode {
  env_config: Record<string, unknown>;
  seed: number;
  actions: string[];
  reset_again?: boolean;
}

/** What VAGEN's client makes of an image: PIL's RGBA pixels. */
async function digest(image: ImageData): Promise<ImageDigest> {
  const { data, info } = await sharp(image.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { size: [info.width, info.height], mode: 'RGBA', sha256: createHash('sha256').update(data).digest('hex') };
}
const played = async (observation: Observation): Promise<Played> => ({ obs_str: observation.text, images: await Promise.all(observation.images.map(digest)) });
const json = (info: Record<string, unknown>) => JSON.parse(JSON.stringify(info)) as Record<string, unknown>;

/** The oracle of the env or of the first env under its wrappers that has one. */
function oracleOf(env: Env): () => string | Promise<string> {
  for (let current: Env | undefined = env; current !== undefined; current = (current as { env?: Env }).env) {
    if (typeof current.oracleResponse === 'function') return current.oracleResponse.bind(current);
  }
  throw new Error(`${env.id} has no oracle`);
}

/**
 * Plays `episode` on an env made in this process, as the service should: the first action of
 * `firstActions` each turn while there are any, then the env's oracle until the episode ends.
 * Returns the actions it played (the plan for the Python client) and the report to expect.
 */
async function playInProcess(env: Env, seed: number, firstActions: string[], { promptNote, resetAgain }: { promptNote?: string; resetAgain?: boolean } = {}) {
  const actions: string[] = [];
  const episode = async () => {
    const steps: NonNullable<EpisodeReport['steps']> = [];
    for (let turn = 0; turn < 8; turn++) {
      const action = actions.length > turn ? actions[turn]! : (firstActions[turn] ?? String(await oracleOf(env)()));
      if (actions.length <= turn) actions.push(action);
      const { observation, reward, terminated, truncated, info } = await env.step(action);
      steps.push({ ...(await played(observation)), reward, done: terminated || truncated, info: json({ ...toGymInfo(info), terminated, truncated }) });
      if (terminated || truncated) break;
    }
    return steps;
  };
  const first = await env.reset({ seed });
  const report: EpisodeReport = { reset: { ...(await played(first.observation)), info: json(toGymInfo(first.info)) } };
  report.system_prompt = promptNote === undefined ? env.systemPrompt() : `${env.systemPrompt()}\n${promptNote}`;
  report.steps = await episode();
  if (resetAgain) {
    const again = await env.reset({ seed });
    report.reset_again = { ...(await played(again.observation)), info: json(toGymInfo(again.info)) };
    report.steps_again = await episode();
  }
  await env.close();
  return { actions, report };
}

async function playWithVagenClient(plan: { base_urls: string | string[]; token?: string; retries?: number; episodes: Episode[] }): Promise<EpisodeReport[]> {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-vagen-main-'));
  const file = join(folder, 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  const { stdout } = await run(python, [script, file], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  return (JSON.parse(stdout) as { episodes: EpisodeReport[] }).episodes;
}

/** A VQA task file of two tasks with solid-colour images. */
async function writeTaskFile(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-vqa-remote-'));
  mkdirSync(join(folder, 'images'));
  const solid = (background: string) => sharp({ create: { width: 24, height: 16, channels: 3, background } }).png().toBuffer();
  writeFileSync(join(folder, 'images', 'red.png'), await solid('#ff0000'));
  writeFileSync(join(folder, 'images', 'blue.png'), await solid('#0000ff'));
  const tasks = [
    { id: 'colour-1', dataset: 'ChartQA', taskFamily: 'chart', images: ['images/red.png'], question: 'What is the highest value?', answer: '45', answerType: 'number' },
    { id: 'colour-2', dataset: 'AI2D', taskFamily: 'science', images: ['images/blue.png', 'images/red.png'], question: 'Which colour comes first?', choices: ['red', 'blue'], answer: 'blue', answerType: 'multiple-choice' },
  ];
  const file = join(folder, 'tasks.jsonl');
  writeFileSync(file, tasks.map((task) => JSON.stringify(task)).join('\n') + '\n');
  return file;
}

const post = async (url: string, data: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': API_KEY }) => {
  const encoded = encodeMultipartBody({ data, images: [] }, 'form-data');
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': encoded.contentType, ...headers }, body: encoded.body });
  const type = response.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, body: type.startsWith('multipart/') ? decodeMultipartBody(type, bytes) : JSON.parse(new TextDecoder().decode(bytes)) };
};

const sessionCount = async (url: string) => ((await (await fetch(url)).json()) as { num_sessions: number }).num_sessions;

let server: SaccadeServer;

beforeAll(async () => {
  registerTestEnvs();
  registerVqaEnvs();
  registerTool(zoomTool, { override: true });
  server = createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES, apiKey: API_KEY });
  await server.listen(0);
});

afterAll(async () => {
  await server.close();
});

describe.skipIf('skip' in found)("VAGEN main's GymImageEnvClient (vagen/envs_remote, unchanged) against saccade serve env's session protocol", () => {
  it('plays FrozenLake, Sokoban (VAGEN names and keys), VisualSearch with the zoom tool and a VQA task file: the same observations, images, rewards and info as the envs in process, for the same seeds', async () => {
    const taskFile = await writeTaskFile();
    const grid = { render_mode: 'vision', max_actions_per_step: 3, action_sep: ',', prompt_format: 'free_think', use_example_in_sys_prompt: true, success_reward: 1 };
    const bad = '<think>no idea</think><answer>Jump</answer>';
    const frozen = await playInProcess(makeEnv(FROZEN_LAKE_ID, { observation: 'vision', maxActionsPerTurn: 3, actionSeparator: ',', format: 'free_think', size: 4, slippery: false }, { maxTurns: null }), 11, [bad], { resetAgain: true });
    const sokoban = await playInProcess(makeEnv(SOKOBAN_ID, { observation: 'vision', maxActionsPerTurn: 3, actionSeparator: ',', format: 'free_think', height: 6, width: 6, boxes: 1 }, { maxTurns: null }), 5, [bad]);
    const search = await playInProcess(new ToolUseWrapper(makeEnv(VISUAL_SEARCH_ID, {}), { tools: [zoomTool] }), 3, []);
    const vqa = await playInProcess(makeEnv(VISION_QA_ID, { taskFile, maxAttempts: 2 }), 1, ['<answer>Z</answer>']);

    const reports = await playWithVagenClient({
      base_urls: server.url,
      token: API_KEY,
      episodes: [
        { env_config: { env_name: 'frozenlake', ...grid, size: 4, is_slippery: false, slip_prob: 0 }, seed: 11, actions: frozen.actions, reset_again: true },
        { env_config: { env_name: 'sokoban', ...grid, dim_room: [6, 6], num_boxes: 1 }, seed: 5, actions: sokoban.actions },
        { env_config: { env_name: VISUAL_SEARCH_ID, tools: ['image_zoom_in_tool'] }, seed: 3, actions: search.actions },
        { env_config: { env_name: VISION_QA_ID, taskFile, maxAttempts: 2 }, seed: 1, actions: vqa.actions },
      ],
    });
    // A tool call's durationMs is a wall-clock time, the one field that differs between two plays.
    const timeless = (value: unknown) => JSON.parse(JSON.stringify(value), (key, item) => (key === 'durationMs' ? typeof item : item));
    expect(timeless(reports)).toEqual(timeless([frozen.report, sokoban.report, search.report, vqa.report]));

    // What VAGEN's agent loop reads: one image per <image>, the rewards, done and info.success.
    const [frozenLake, , visualSearch, taskFileQa] = reports as [Required<EpisodeReport>, Required<EpisodeReport>, Required<EpisodeReport>, Required<EpisodeReport>];
    expect(frozenLake.reset.obs_str.split('<image>').length - 1).toBe(1);
    expect(frozenLake.reset.images).toHaveLength(1);
    expect(frozenLake.reset.images[0]!.mode).toBe('RGBA');
    expect(frozenLake.steps[0]).toMatchObject({ reward: 0, done: false, info: { success: false, metrics: { turn_metrics: { action_is_valid: false } } } });
    expect(frozenLake.steps.at(-1)).toMatchObject({ done: true, info: { success: true, metrics: { traj_metrics: { success: true } } } });
    expect(frozenLake.steps_again).toEqual(frozenLake.steps);
    expect(visualSearch.steps).toHaveLength(2);
    expect(visualSearch.reset.images[0]!.size).toEqual([2048, 2048]);
    expect(visualSearch.steps[0]).toMatchObject({ reward: 0, done: false, info: { success: false } });
    expect(visualSearch.steps[0]!.obs_str).toContain('<tool_response>');
    expect(visualSearch.steps[0]!.images).toHaveLength(1);
    expect(visualSearch.steps[1]).toMatchObject({ done: true, info: { success: true } });
    expect(taskFileQa.reset.images).toHaveLength(2);
    expect(taskFileQa.steps.map(({ done, info }) => [done, info.success])).toEqual([
      [false, false],
      [true, true],
    ]);
    // Every client closed its session.
    expect(await sessionCount(`${server.url}/sessions?token=${API_KEY}`)).toBe(0);
  }, 60_000);

  it("through the env router over two env services: sessions alternate between the workers and every call reaches its session's worker", async () => {
    const shards = [createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES }), createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES })];
    await Promise.all(shards.map((shard) => shard.listen(0)));
    const router = createEnvRouter({ logger: false, workers: shards.map((shard) => shard.url) });
    await router.listen(0);
    try {
      const first = await post(`${router.url}/connect`, { env_config: { env_name: 'sokoban', render_mode: 'text' }, seed: 4 });
      const second = await post(`${router.url}/connect`, { env_config: { env_name: 'frozenlake', render_mode: 'text' } });
      expect([first.body.data.session_id, second.body.data.session_id].map((id: string) => id.slice(0, 3))).toEqual(['w0-', 'w1-']);
      expect(first.body.data.obs).toBe((await makeEnv(SOKOBAN_ID, { observation: 'text' }, { maxTurns: null }).reset({ seed: 4 })).observation.text);
      expect(await sessionCount(`${router.url}/sessions`)).toBe(2);
      expect(await Promise.all(shards.map((shard) => sessionCount(`${shard.url}/sessions`)))).toEqual([1, 1]);
      const prompt = await post(`${router.url}/call`, { session_id: second.body.data.session_id, method: 'system_prompt' });
      expect(prompt.body.data.obs).toBe(makeEnv(FROZEN_LAKE_ID, { observation: 'text' }).systemPrompt());
      expect((await post(`${router.url}/call`, { session_id: 'w7-abc', method: 'step' })).status).toBe(404);
      expect((await post(`${router.url}/call`, { method: 'step' })).body).toEqual({ detail: 'session_id required: expected a data part {"session_id", "method", "params"}.' });
      await Promise.all([first, second].map((connected) => post(`${router.url}/call`, { session_id: connected.body.data.session_id, method: 'close' })));
      expect(await sessionCount(`${router.url}/sessions`)).toBe(0);

      const frozen = await playInProcess(makeEnv(FROZEN_LAKE_ID, { observation: 'vision' }, { maxTurns: null }), 21, []);
      const reports = await playWithVagenClient({ base_urls: router.url, episodes: [0, 1].map(() => ({ env_config: { env_name: 'frozenlake', render_mode: 'vision' }, seed: 21, actions: frozen.actions })) });
      expect(reports).toEqual([frozen.report, frozen.report]);
    } finally {
      await router.close();
      await Promise.all(shards.map((shard) => shard.close()));
    }
  }, 30_000);

  it("a server at capacity is 503, which VAGEN's client retries and then reports; without the API key it is refused", async () => {
    const full = createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES, maxEnvironments: 1, apiKey: API_KEY });
    await full.listen(0);
    try {
      const held = await post(`${full.url}/connect`, { env_config: { env_name: 'frozenlake' } });
      expect(held.status).toBe(200);
      const [busy, noKey] = await Promise.all([
        playWithVagenClient({ base_urls: full.url, token: API_KEY, retries: 1, episodes: [{ env_config: { env_name: 'frozenlake' }, seed: 1, actions: [] }] }),
        playWithVagenClient({ base_urls: server.url, episodes: [{ env_config: { env_name: 'frozenlake' }, seed: 1, actions: [] }] }),
      ]);
      expect(busy).toEqual([{ error: 'RuntimeError: Failed to connect to any server: server busy' }]);
      // httpx's message; its second line (a documentation link) differs between httpx versions.
      expect(noKey).toHaveLength(1);
      expect(noKey[0]!.error!.split('\n')[0]).toBe(`RuntimeError: Failed to connect to any server: Client error '401 Unauthorized' for url '${server.url}/connect'`);
    } finally {
      await full.close();
    }
  }, 30_000);
});

describe('the session protocol refuses what VAGEN refuses', () => {
  it('400 without session_id, method or env_name, 404 for an unknown session, 401 without the key; GET /sessions lists sessions; an idle one is closed', async () => {
    const url = server.url;
    expect(await post(`${url}/call`, { method: 'step' })).toEqual({ status: 400, body: { detail: 'session_id required: expected a data part {"session_id", "method", "params"}.' } });
    expect(await post(`${url}/call`, { session_id: 'abc' })).toEqual({ status: 400, body: { detail: 'method required: one of system_prompt, reset, step, close.' } });
    expect(await post(`${url}/call`, { session_id: 'abc', method: 'step', params: { action_str: 'Left' } })).toEqual({
      status: 404,
      body: { detail: 'Unknown session id "abc": create it first (it may also have expired after 1800000 ms idle).' },
    });
    expect((await post(`${url}/connect`, { env_config: {} })).body.detail).toBe('env_config.env_name is required: expected one of frozenlake, sokoban, svg, a registered env id, received none.');
    expect((await post(`${url}/connect`, { env_config: { env_name: 'frozenlake', p: 3 } })).body.detail).toBe('Invalid env_config.p: expected a probability in (0, 1], received 3.');
    expect(await post(`${url}/connect`, { env_config: { env_name: 'frozenlake' } }, {})).toEqual({
      status: 401,
      body: { error: 'Unauthorized: this service needs its API key in the x-api-key header, ?token= or Authorization: Bearer.' },
    });
    const plain = await fetch(`${url}/connect`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': API_KEY }, body: '{}' });
    expect({ status: plain.status, body: await plain.json() }).toEqual({ status: 400, body: { detail: 'Expected a multipart/form-data body with a JSON part named "data"; received content-type "application/json".' } });

    const quick = createEnvServer({ logger: false, vagenEnvNames: VAGEN_NAMES, idleTimeoutMs: 300 });
    await quick.listen(0);
    try {
      const connected = await post(`${quick.url}/connect`, { env_config: { env_name: 'sokoban', render_mode: 'text' }, seed: 2 });
      expect(connected.status).toBe(200);
      const sessionId = connected.body.data.session_id as string;
      expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
      expect(connected.body.images).toEqual([]);
      const listed = await (await fetch(`${quick.url}/sessions`)).json();
      expect(listed).toMatchObject({ num_sessions: 1, max_sessions: 4096, session_timeout: 0.3, sessions: [{ session_id: sessionId }] });
      expect((await post(`${quick.url}/call`, { session_id: sessionId, method: 'dance' })).body).toEqual({ detail: 'Unknown method "dance": expected system_prompt, reset, step or close.' });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await sessionCount(`${quick.url}/sessions`)).toBe(0);
      expect((await post(`${quick.url}/call`, { session_id: sessionId, method: 'system_prompt' })).status).toBe(404);
    } finally {
      await quick.close();
    }
  });

  it('the info of a step carries success as VAGEN main envs give it', () => {
    const info: EnvInfo = { metrics: { action_is_valid: true, success: 1 } };
    expect(toGymInfo(info)).toEqual({ metrics: { turn_metrics: { action_is_valid: true }, traj_metrics: { success: 1 } }, success: true });
  });
});
