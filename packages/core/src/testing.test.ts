import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnv } from './check/check-env';
import { createRng } from './random/create-rng';
import { TaskFileSource } from './tasks/task-file-source';
import { checkTool } from './tools/check-tool';
import { runTool } from './tools/run-tool';
import { ToolUseWrapper } from './wrappers/tool-use-wrapper';
import {
  createEchoTool,
  echoTool,
  GUESS_NUMBER_ID,
  GuessNumberEnv,
  makeTaskFolder,
  RED_PIXEL_PNG,
  runEpisode,
  SAMPLE_TASKS,
  startStandInServer,
  TASK_IMAGES,
  writeJsonLines,
} from './testing';

/** A PNG's width and height from its IHDR chunk. */
const pngSize = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
};

describe('@saccade/core/testing', () => {
  it('GuessNumberEnv passes checkEnv and its oracle wins on the first turn', async () => {
    expect(await checkEnv(() => new GuessNumberEnv(), { seed: 3 })).toEqual({ ok: true, envId: GUESS_NUMBER_ID, failures: [] });
    const secret = createRng(0).int(1, 20);
    const run = await runEpisode(new GuessNumberEnv(), (_, env) => env.oracleResponse());
    expect(run.reset.observation).toEqual({ text: 'Guess a number from 1 to 20. <image>', images: [RED_PIXEL_PNG] });
    expect(run.steps.map((step) => [step.observation.text, step.reward, step.terminated])).toEqual([['Correct! <image>', 10.5, true]]);
    expect([run.totalReward, run.done, secret]).toEqual([10.5, true, 6]);
  });

  it('runEpisode plays a script to its end, refuses responses the episode did not take, and stops a function at maxTurns', async () => {
    const run = await runEpisode(new GuessNumberEnv(), ['<answer>1</answer>', 'no answer', '<answer>20</answer>', (_, env) => env.oracleResponse()]);
    expect(run.steps.map((step) => [step.observation.text, step.reward])).toEqual([
      ['Higher. <image>', 0.5],
      ['Invalid answer: expected <answer>…</answer>: missing <answer> at the start; the response ends. <image>', 0],
      ['Lower. <image>', 0.5],
      ['Correct! <image>', 10.5],
    ]);
    expect([run.totalReward, run.done]).toEqual([11.5, true]);
    await expect(runEpisode(new GuessNumberEnv(), ['<answer>6</answer>', '<answer>6</answer>'])).rejects.toThrow(
      'expected the episode to take all 2 scripted responses, but it ended after 1',
    );
    const capped = await runEpisode(new GuessNumberEnv(), () => '<answer>1</answer>', { maxTurns: 4 });
    expect([capped.steps.length, capped.totalReward, capped.done]).toEqual([4, 2, false]);
  });

  it('the echo tool says its text back, shows an episode image again, fails on a missing image and passes checkTool', async () => {
    expect(await runTool(echoTool, { text: 'hi' }, { images: [] })).toEqual({ ok: true, result: { text: 'hi' }, durationMs: expect.any(Number) });
    expect(await runTool(echoTool, { text: 'look', image: 0 }, { images: [RED_PIXEL_PNG] })).toMatchObject({ ok: true, result: { text: 'look', images: [RED_PIXEL_PNG] } });
    expect(await runTool(echoTool, { text: 'look', image: 1 }, { images: [RED_PIXEL_PNG] })).toMatchObject({
      ok: false,
      kind: 'failed',
      message: `"echo" failed: expected an image index below 1 (the episode's images), received 1`,
    });
    expect(await runTool(echoTool, { text: 3 }, { images: [] })).toMatchObject({ ok: false, kind: 'invalid-arguments' });
    expect(createEchoTool({ name: 'say' }).name).toBe('say');
    expect(await checkTool(echoTool, { sampleInput: { text: 'hi', image: 0 }, images: [RED_PIXEL_PNG] })).toEqual({ ok: true, toolName: 'echo', failures: [] });
  });

  it('the env and the tool play together under ToolUseWrapper', async () => {
    const env = new ToolUseWrapper(new GuessNumberEnv(), { tools: [echoTool] });
    const run = await runEpisode(env, ['<tool_call>{"name": "echo", "arguments": {"text": "again", "image": 0}}</tool_call>', '<answer>6</answer>']);
    expect(run.steps[0]!.observation).toEqual({ text: '<tool_response>\nagain\n<image>\n</tool_response>', images: [RED_PIXEL_PNG] });
    expect(run.steps.map((step) => [step.reward, step.terminated])).toEqual([
      [0, false],
      [10.5, true],
    ]);
  });

  it('makeTaskFolder writes decodable sample images that the sample task lines name; writeJsonLines writes a task file', async () => {
    const folder = makeTaskFolder();
    try {
      expect(new Uint8Array(readFileSync(join(folder, 'images', 'red.png')))).toEqual(TASK_IMAGES.red.data);
      expect([pngSize(TASK_IMAGES.red.data), pngSize(TASK_IMAGES.blue.data)]).toEqual([
        [8, 6],
        [4, 4],
      ]);
      expect(SAMPLE_TASKS.flatMap((task) => task.images).every((image) => existsSync(join(folder, image)))).toBe(true);
      const file = writeJsonLines(folder, [SAMPLE_TASKS[0], 'not json'], 'two.jsonl');
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(SAMPLE_TASKS[0])}\nnot json\n`);
      const source = new TaskFileSource(writeJsonLines(folder, SAMPLE_TASKS));
      expect(await source.size()).toBe(5);
      expect((await source.get(1)).answer).toBe('Venus');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('startStandInServer records requests and answers JSON, text, 500 for a handler that throws, or nothing', async () => {
    const server = await startStandInServer(({ path, json }) => {
      if (path === '/json') return { json: { got: json } };
      if (path === '/text') return { status: 201, text: 'made' };
      if (path === '/throw') throw new Error('handler broke');
      return undefined;
    });
    try {
      const json = await fetch(`${server.url}/json`, { method: 'POST', body: '{"a":1}', headers: { 'x-key': 'k' } });
      expect([json.status, json.headers.get('content-type'), await json.json()]).toEqual([200, 'application/json', { got: { a: 1 } }]);
      const text = await fetch(`${server.url}/text`);
      expect([text.status, await text.text()]).toEqual([201, 'made']);
      const broken = await fetch(`${server.url}/throw`, { method: 'POST', body: 'plain' });
      expect([broken.status, await broken.text()]).toEqual([500, 'handler broke']);
      await expect(fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
      expect(server.requests.map(({ method, path, body, json }) => ({ method, path, body, json }))).toEqual([
        { method: 'POST', path: '/json', body: '{"a":1}', json: { a: 1 } },
        { method: 'GET', path: '/text', body: '', json: undefined },
        { method: 'POST', path: '/throw', body: 'plain', json: undefined },
        { method: 'GET', path: '/hang', body: '', json: undefined },
      ]);
      expect(server.requests[0]!.headers['x-key']).toBe('k');
    } finally {
      await server.close();
    }
  });
});
