import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkEnv, decodeMultipartBody, encodeMultipartBody, makeEnv } from '@saccade/core';
import { formatCorrectOf, InvalidArgumentError, type ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { deadUrl, lineWalkSuite, startLineWalkService } from '../test/line-walk-service';
import { RemoteEnvError } from './remote-env-error';
import { REMOTE_ENV_ID, registerRemoteEnvs, VagenRemoteEnv } from './vagen-remote-env';

const KEY = 'line-key';
const lineWalk = await lineWalkSuite("saccade/Remote-v1 against VAGEN main's GymService", KEY);
const LINE_WALK = { env_name: 'line_walk', length: 5 };
const LINE_WALK_SPACE = { kind: 'discrete', actions: ['Left', 'Right'], maxActionsPerTurn: 1, separator: ',', format: 'free_think' } as const;

/** A PNG's size from its IHDR chunk. */
const pngSize = (image: ImageData) => {
  const view = new DataView(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
};
const cellOf = (text: string) => Number(/You are at cell (\d+)\./.exec(text)?.[1]);

describe.skipIf(lineWalk.skip)("saccade/Remote-v1 against VAGEN main's GymService (vagen/envs_remote, unchanged) around a Python env", () => {
  lineWalk.startAroundSuite();

  it("plays it through the registry: the server's system prompt, text and one PNG a turn, rewards, done and info.success as metrics.success; a second reset keeps the session", async () => {
    registerRemoteEnvs();
    const env = makeEnv(REMOTE_ENV_ID, { baseUrls: lineWalk.service.url, envConfig: LINE_WALK, token: KEY });
    expect(env.systemPrompt()).toBe(`An env served by ${lineWalk.service.url} over VAGEN's remote env protocol; its system prompt is read at reset.`);
    const { observation, info } = await env.reset({ seed: 3 });
    expect(env.systemPrompt()).toBe('You are the red cell on a line of 5 cells; walk to the green cell. Answer <answer>Left</answer> or <answer>Right</answer>.');
    expect(observation.text).toMatch(/^You are at cell \d\. <image>$/);
    expect(observation.images.map((image) => [image.mediaType, ...pngSize(image)])).toEqual([['image/png', 40, 8]]);
    const target = info.target as number;
    let cell = cellOf(observation.text);

    const invalid = await env.step('I would rather not move.');
    expect([invalid.observation.text, invalid.reward, invalid.terminated, invalid.info.metrics]).toEqual(['Expected <answer>Left</answer> or <answer>Right</answer>. <image>', -0.1, false, { action_is_valid: false, success: false }]);
    const rewards: number[] = [];
    for (let done = false; !done; ) {
      const step = await env.step(`<think>go</think><answer>${target < cell ? 'Left' : 'Right'}</answer>`);
      cell = cellOf(step.observation.text);
      expect(step.observation.images).toHaveLength(1);
      rewards.push(step.reward);
      done = step.terminated;
      expect(step.info.metrics).toEqual({ action_is_valid: true, success: done });
      expect(step.info.success).toBe(done);
    }
    expect(cell).toBe(target);
    expect(rewards).toEqual([...Array.from({ length: rewards.length - 1 }, () => 0), 1]);
    await expect(env.step('<answer>Left</answer>')).rejects.toThrow('the episode has ended; call reset()');

    // makeEnv wraps the env (order checks); the session is the innermost env's.
    const remote = (env as unknown as { unwrapped: VagenRemoteEnv }).unwrapped;
    const session = remote.session;
    const again = await env.reset({ seed: 3 });
    expect(again.observation.text).toBe(observation.text);
    expect(remote.session).toEqual(session);
    await env.close();
    expect(((await (await fetch(`${lineWalk.service.url}/sessions?token=${KEY}`)).json()) as { num_sessions: number }).num_sessions).toBe(0);
  }, 30_000);

  it('passes checkEnv with the action space the caller declares', async () => {
    const report = await checkEnv(() => new VagenRemoteEnv({ baseUrls: lineWalk.service.url, envConfig: LINE_WALK, token: KEY, actionSpace: LINE_WALK_SPACE }));
    expect(report).toMatchObject({ ok: true, failures: [] });
  }, 30_000);

  it('fails over a server that refuses connections to the next URL; a wrong key or env_name is refused with what the server said, with no retry elsewhere', async () => {
    const dead = await deadUrl();
    const env = new VagenRemoteEnv({ baseUrls: `${dead};${lineWalk.service.url}`, envConfig: LINE_WALK, token: KEY, retries: 3, backoff: 0.01 });
    await env.reset({ seed: 1 });
    expect(env.session?.url).toBe(lineWalk.service.url);
    await env.close();

    const noKey = new VagenRemoteEnv({ baseUrls: lineWalk.service.url, envConfig: LINE_WALK, token: 'wrong', backoff: 0.01 });
    const refused = noKey.reset({ seed: 1 });
    await expect(refused).rejects.toThrow(RemoteEnvError);
    await expect(refused).rejects.toThrow(`saccade/Remote-v1 could not open a session (POST /connect) after 1 attempt: ${lineWalk.service.url}: 401: unauthorized.`);
    const unknown = new VagenRemoteEnv({ baseUrls: lineWalk.service.url, envConfig: { env_name: 'maze' }, token: KEY, backoff: 0.01 });
    await expect(unknown.reset({ seed: 1 })).rejects.toThrow(`${lineWalk.service.url}: 500: unknown env_name 'maze': this server serves line_walk.`);

    const other = await deadUrl();
    const nothing = new VagenRemoteEnv({ baseUrls: [dead, other], envConfig: LINE_WALK, retries: 2, backoff: 0.01 });
    const message = await nothing.reset({ seed: 1 }).then(() => '', (error: Error) => error.message);
    // Three attempts, moving along the pool (wherever this env's round robin started).
    const tried = /^saccade\/Remote-v1 could not open a session \(POST \/connect\) after 3 attempts: (\S+): ECONNREFUSED: [^;]*; (\S+): ECONNREFUSED: [^;]*; (\S+): ECONNREFUSED: [^;]*\.$/.exec(message);
    expect(tried?.slice(1)).toEqual(tried?.[1] === dead ? [dead, other, dead] : [other, dead, other]);
  }, 30_000);

  it('a server that dies mid-episode fails the step, saying the episode is lost; the next reset opens a session on a server that lives', async () => {
    const spare = await startLineWalkService(lineWalk.python, KEY);
    try {
      const env = new VagenRemoteEnv({ baseUrls: [lineWalk.service.url, spare.url], envConfig: LINE_WALK, token: KEY, retries: 2, backoff: 0.01 });
      // Connect until the session is on the spare (connects start one URL further along each time).
      do await env.reset({ seed: 2 });
      while (env.session?.url !== spare.url && (await env.close(), true));
      const { sessionId } = env.session!;
      await spare.stop();
      const step = env.step('<answer>Left</answer>');
      await expect(step).rejects.toThrow(RemoteEnvError);
      await expect(step).rejects.toThrow(
        new RegExp(`^saccade/Remote-v1: step of session ${sessionId} on ${spare.url.replaceAll('.', '\\.')} failed after 3 attempts \\(the server is gone or did not answer\\): ECONNREFUSED: .*: the episode is lost; reset\\(\\) opens a new session\\.$`),
      );
      const { observation } = await env.reset({ seed: 2 });
      expect(env.session?.url).toBe(lineWalk.service.url);
      expect(observation.images).toHaveLength(1);
      await env.close();
    } finally {
      await spare.stop();
    }
  }, 30_000);
});

/**
 * The info VAGEN main's FrozenLake (`vagen/envs/frozenlake/frozenlake_env.py`, free_think) returns
 * from a step, as its GymService sends it unchanged: `parse_response`'s result at the top
 * (format_correct among it), then `metrics` and `success`.
 */
function frozenLakeStepInfo(response: string, { wellFormed }: { wellFormed: boolean }) {
  return wellFormed
    ? {
        llm_raw_response: response,
        llm_response: '<think>The goal is left of me.</think><answer>Left</answer>',
        perception_content: '',
        reasoning_content: 'The goal is left of me.',
        prediction_content: '',
        action_content: 'left',
        actions: ['left'],
        format_correct: true,
        metrics: { turn_metrics: { action_is_valid: true, action_is_effective: true }, traj_metrics: { success: false } },
        success: false,
      }
    : {
        llm_raw_response: response,
        llm_response: '<think></think><answer></answer>',
        perception_content: '',
        reasoning_content: '',
        prediction_content: '',
        action_content: '',
        actions: [],
        format_correct: false,
        metrics: { turn_metrics: { action_is_valid: false, action_is_effective: false }, traj_metrics: { success: false } },
        success: false,
      };
}

describe("saccade/Remote-v1 and VAGEN's step info", () => {
  it("copies the top-level format_correct of VAGEN's envs into metrics, beside the flattened turn and trajectory metrics", async () => {
    // A text-mode FrozenLake session as VAGEN's remote service answers it (multipart/mixed, JSON part "data").
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const sent = decodeMultipartBody(request.headers['content-type'] ?? '', Buffer.concat(chunks)).data as { params?: { action_str?: string } };
        const action = sent.params?.action_str ?? '';
        const data =
          request.url === '/connect'
            ? { session_id: 'frozen-1', obs: ' _  P  G \n', info: {} }
            : { obs: ' P  _  G \n', reward: 0, done: false, info: frozenLakeStepInfo(action, { wellFormed: action.includes('</answer>') }) };
        const encoded = encodeMultipartBody({ data, images: [] }, 'mixed');
        response.writeHead(200, { 'content-type': encoded.contentType }).end(encoded.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = new VagenRemoteEnv({ baseUrls: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, envConfig: { env_name: 'frozenlake' } });
    try {
      await env.reset({ seed: 0 });
      const right = '<think>The goal is left of me.</think><answer>Left</answer>';
      const kept = await env.step(right);
      expect(kept.info).toEqual({ ...frozenLakeStepInfo(right, { wellFormed: true }), metrics: { action_is_valid: true, action_is_effective: true, success: false, format_correct: true } });
      expect(formatCorrectOf(kept.info)).toBe(true);
      const broken = await env.step('Left');
      expect(broken.info.metrics).toEqual({ action_is_valid: false, action_is_effective: false, success: false, format_correct: false });
      expect(formatCorrectOf(broken.info)).toBe(false);
    } finally {
      await env.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('saccade/Remote-v1 options', () => {
  it('says what it expected of bad options', () => {
    expect(() => new VagenRemoteEnv({ baseUrls: [] })).toThrow(InvalidArgumentError);
    expect(() => new VagenRemoteEnv({ baseUrls: [] })).toThrow('expected at least one URL of a remote env server');
    expect(() => new VagenRemoteEnv({ baseUrls: 'localhost:8000' })).toThrow('expected http:// or https:// URLs of remote env servers');
    expect(() => new VagenRemoteEnv({ baseUrls: 'http://a:1', timeout: -1 })).toThrow('Invalid options of saccade/Remote-v1: timeout: Too small: expected number to be >0.');
    expect(() => new VagenRemoteEnv({ baseUrls: 'http://a:1', retry: 3 } as never)).toThrow('Invalid options of saccade/Remote-v1: options: Unrecognized key: "retry".');
    expect(() => new VagenRemoteEnv({ baseUrls: 'http://a:1', actionSpace: { kind: 'discrete' } as never })).toThrow(/^Invalid options of saccade\/Remote-v1: actionSpace: /);
    expect(new VagenRemoteEnv({ baseUrls: ' http://a:1/ ;\n# spare\nhttps://b.example/env ' }).urls).toEqual(['http://a:1', 'https://b.example/env']);
  });

  it('refuses step before reset and reset options it cannot send', async () => {
    const env = new VagenRemoteEnv({ baseUrls: 'http://127.0.0.1:9' });
    await expect(env.step('x')).rejects.toThrow('Cannot call step(): expected reset() first, but no session is open.');
    await expect(env.reset({ seed: 1, options: { size: 3 } })).rejects.toThrow('expected no reset options (saccade/Remote-v1 sends only the seed; put options in envConfig)');
  });
});
