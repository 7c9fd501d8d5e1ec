// `saccade eval --agent openai --tools …` against a server that behaves as OpenAI's API does: it
// ends generation at the first stop string and leaves it out of the content. With tools on, the
// eval sends `</tool_call>` as a stop, so the model's invented tool response never reaches the
// env, and the agent puts the closing tag back, so the turn's text is a whole tool call.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-eval-stop-'));
// What the model would write, turn by turn, if nothing stopped it.
const WRITES = [
  '<think>First 2 + 3.</think>\n<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>\n<tool_response>9</tool_response>\n<think>So 9.</think><answer>Left</answer>',
  '<think>The goal is below.</think><answer>Down</answer>',
];
const requests: { stop?: string[]; messages: { role: string; content: unknown }[] }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const parsed = JSON.parse(body) as (typeof requests)[number];
      const text = WRITES[Math.min(requests.length, WRITES.length - 1)]!;
      requests.push(parsed);
      const cut = Math.min(...(parsed.stop ?? []).map((stop) => text.indexOf(stop)).filter((at) => at >= 0), text.length);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content: text.slice(0, cut) }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

test('eval --tools sends </tool_call> as a stop and keeps it in the turn; the invented tool response never reaches the env', async () => {
  const output: Output = { log: () => {}, error: () => {} };
  const args = ['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'openai', '--base-url', baseUrl, '--model', 'gpt-test', '--tools', 'calculator', '--episodes', '1', '--concurrency', '1', '--out', scratch, '--name', 'tools'];
  const { exitCode } = await runCli(args, output);
  expect(exitCode).toBe(EXIT_SUCCESS);
  expect(requests.length).toBeGreaterThanOrEqual(2);
  expect(requests.every((request) => JSON.stringify(request.stop) === '["</tool_call>"]')).toBe(true);
  const episode = JSON.parse(readFileSync(join(scratch, 'tools', 'trajectories', 'episodes.jsonl'), 'utf8').split('\n')[0]!) as { turns: { action: string }[] };
  expect(episode.turns[0]!.action).toBe('<think>First 2 + 3.</think>\n<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>');
  // The second request carries the whole tool call and the calculator's real result, not the invented 9.
  const second = JSON.stringify(requests[1]!.messages);
  expect(second).toContain(JSON.stringify('<think>First 2 + 3.</think>\n<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>'));
  expect(requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: '<tool_response>\n5\n</tool_response>' }] });
  expect(second).not.toContain('<tool_response>9</tool_response>');
});
