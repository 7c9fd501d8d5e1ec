import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeEnv } from '@saccade/core';
import { oracleResponse, type GridEnv, type GridState } from '@saccade/env-grid';
import { runCli } from '../create-program';
import { acceptJudgeSettings } from './env-judges';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-judge-'));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

const DIRECTIONS: Record<string, [string, string]> = {
  above: ['above', 'same'],
  below: ['below', 'same'],
  'to the left of': ['same', 'left'],
  'to the right of': ['same', 'right'],
  'above and to the left of': ['above', 'left'],
  'above and to the right of': ['above', 'right'],
  'below and to the left of': ['below', 'left'],
  'below and to the right of': ['below', 'right'],
};

/**
 * A judge as an OpenAI-compatible server on loopback: it reads the description out of VAGEN's
 * prompt and answers, as JSON, where it says the target is, and nothing about boxes, so that a
 * correct description scores 0.5 on Sokoban (target F1 1, box F1 0), where the LLM-free
 * relation F1 would give 1.
 */
function startJudge(): Promise<{ server: Server; url: string; requests: { model: string; prompt: string }[] }> {
  const requests: { model: string; prompt: string }[] = [];
  const read = async (request: IncomingMessage): Promise<string> => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    return body;
  };
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await read(request)) as { model: string; messages: { role: string; content: string }[] };
    const prompt = body.messages[0]!.content;
    requests.push({ model: body.model, prompt });
    const description = /Input Text to Parse:\n([\s\S]*)\n\nObjects to Look For/.exec(prompt)?.[1] ?? '';
    const said = /A target is ([a-z ]+?) the player\./.exec(description)?.[1];
    const relation = /The player is on a target\./.test(description) ? ['same', 'same'] : said === undefined ? undefined : DIRECTIONS[said];
    const answer = relation === undefined ? '[]' : `\`\`\`json\n[{"object_id": "target", "vertical_relation": "${relation[0]}", "horizontal_relation": "${relation[1]}"}]\n\`\`\``;
    response.writeHead(request.url === '/v1/chat/completions' ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 'judge', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests })));
}

let judge: Awaited<ReturnType<typeof startJudge>>;
beforeAll(async () => {
  judge = await startJudge();
});
afterAll(async () => {
  await new Promise((resolve) => judge.server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

// One SFT step of 3 examples: the oracle plays all 3 training seeds (SFT plays steps × batch seeds at most).
const SOKOBAN = ['--env', 'saccade/Sokoban-v1', '--max-turns', '2', '--algorithm', 'sft', '--preset', 'tiny', '--steps', '1', '--batch-size', '3', '--eval-every', '1', '--eval-episodes', '1', '--train-seeds', '3', '--workers', '0', '--plain', '--out', scratch];

interface Line {
  type: string;
  step?: number;
  level?: string;
  message?: string;
  rewardTerms?: Record<string, number>;
}
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line & Record<string, unknown>);

describe('saccade train --judge-url', () => {
  test("the grid env's grounding and worldmodel terms are the judge's scores; its counts are in the metrics", { timeout: 60_000 }, async () => {
    const output = capture();
    const { exitCode } = await runCli(
      ['train', ...SOKOBAN, '--env-options', '{"format":"grounding_worldmodeling","visualReasoningReward":true}', '--judge-url', judge.url, '--judge-model', 'judge-model', '--name', 'judged'],
      output,
    );
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    // The oracle's demonstrations describe each state right: the judge's reading of them scores 0.5, weighted 0.5.
    const demonstration = lines(join(scratch, 'judged', 'events.jsonl')).filter((event) => event.type === 'turn-end' && event.step === undefined);
    const judged = demonstration.filter((event) => event.rewardTerms?.['grounding'] !== undefined);
    expect(judged.length).toBeGreaterThanOrEqual(3);
    for (const event of judged) expect(event.rewardTerms).toMatchObject({ grounding: 0.25, worldmodel: 0.25 });
    expect(judge.requests.length).toBeGreaterThan(0);
    expect(judge.requests.every((request) => request.model === 'judge-model' && request.prompt.includes('in a Sokoban environment'))).toBe(true);
    const rows = lines(join(scratch, 'judged', 'metrics.jsonl'));
    const train = rows.find((row) => row['kind'] === 'train')!;
    expect(train['judgeCalls']).toBe(2 * judged.length);
    expect(train['judgeFailures']).toBe(0);
    expect((train['judgeRequests'] as number) + (train['judgeCacheHits'] as number)).toBe(train['judgeCalls']);
    expect(readFileSync(join(scratch, 'judged', 'config.yaml'), 'utf8')).toContain(`judge:\n      url: ${judge.url}\n      model: judge-model`);
  });

  test('a judge that cannot be reached: the terms are 0, the failures are counted and reported, the run completes', { timeout: 60_000 }, async () => {
    const output = capture();
    // Judge settings in the env options (as a run config has them); port 9 on loopback refuses at once.
    const { exitCode } = await runCli(
      ['train', ...SOKOBAN, '--env-options', '{"format":"grounding_worldmodeling","visualReasoningReward":true,"judge":{"url":"http://127.0.0.1:9/v1","maxRetries":0}}', '--name', 'unreachable'],
      output,
    );
    expect(exitCode).toBe(EXIT_SUCCESS);
    const events = lines(join(scratch, 'unreachable', 'events.jsonl'));
    const judged = events.filter((event) => event.type === 'turn-end' && event.step === undefined && event.rewardTerms?.['grounding'] !== undefined);
    expect(judged.length).toBeGreaterThanOrEqual(3);
    for (const event of judged) expect(event.rewardTerms).toMatchObject({ grounding: 0, worldmodel: 0 });
    const train = lines(join(scratch, 'unreachable', 'metrics.jsonl')).find((row) => row['kind'] === 'train')!;
    expect(train['judgeFailures']).toBe(2 * judged.length);
    expect(train['judgeCalls']).toBe(train['judgeFailures']);
    expect(events.find((event) => event.type === 'log' && event.level === 'warn')?.message).toMatch(/^the LLM judge failed \d+ time\(s\) since the last report \(those terms scored 0\): POST http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed/);
  });

  test('any maker of registered envs (the env service among them) takes judge settings once they are accepted', async () => {
    acceptJudgeSettings();
    const env = makeEnv('saccade/Sokoban-v1', { format: 'grounding_worldmodeling', visualReasoningReward: true, observation: 'text', judge: { url: judge.url, model: 'service-judge' } });
    await env.reset({ seed: 5 });
    const step = await env.step(oracleResponse((env as unknown as { unwrapped: GridEnv<GridState> }).unwrapped));
    expect(step.info.rewardTerms).toMatchObject({ grounding: 0.25, worldmodel: 0.25 });
    expect(judge.requests.at(-1)?.model).toBe('service-judge');
    await env.close();
  });

  test('bad judge settings are a usage error before any training', async () => {
    const output = capture();
    const { exitCode } = await runCli(['train', ...SOKOBAN, '--env-options', '{"visualReasoningReward":true}', '--judge-url', 'not a url', '--name', 'bad'], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toMatch(/Invalid argument judge\.url: expected Invalid URL/);
  });
});
