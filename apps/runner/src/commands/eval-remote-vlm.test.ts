import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'saccade-remote-vlm-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('saccade eval --tools remote-vlm asks a model served by saccade serve model; the call and its result are in the trajectory', { timeout: 120_000 }, async () => {
  // The agent under evaluation is scripted (an OpenAI-compatible server of two answers): its first turn
  // calls remote-vlm, its second answers. remote-vlm's VLM is a real served model: a fresh tiny one.
  const agent = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const called = body.includes('tool_response');
      const content = called ? '<answer>A</answer>' : '<tool_call>{"name": "remote-vlm", "arguments": {"task": "grounding", "query": "the tallest bar"}}</tool_call>';
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/v1`;
  const child = spawn(process.execPath, [cli, 'serve', 'model', '--preset', 'tiny', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string;
    const vlmUrl = /listening on (\S+)/.exec(first)?.[1];
    expect(vlmUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const options = { 'remote-vlm': { url: `${vlmUrl}/v1`, timeoutMs: 60_000, maxTokens: 16 } };
    const run = await runCli(['eval', '--env', 'saccade/Charts-v1', '--agent', 'openai', '--base-url', agentUrl, '--model', 'scripted', '--episodes', '2', '--tools', 'remote-vlm', '--tool-options', JSON.stringify(options), '--out', scratch, '--name', 'remote-vlm'], { log: () => {}, error: () => {} });
    expect(run.exitCode).toBe(EXIT_SUCCESS);
  } finally {
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => agent.close(() => resolve()));
  }
  expect(readFileSync(join(scratch, 'remote-vlm', 'config.yaml'), 'utf8')).toContain('toolOptions:\n  remote-vlm:\n');
  const episodes = readFileSync(join(scratch, 'remote-vlm', 'trajectories', 'episodes.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { turns: { action: string; info: { toolCalls?: { name: string; ok: boolean }[] }; observation: { text: string } }[] });
  expect(episodes).toHaveLength(2);
  for (const { turns } of episodes) {
    expect(turns[0]!.info.toolCalls).toMatchObject([{ name: 'remote-vlm', arguments: { task: 'grounding', query: 'the tallest bar' }, ok: true }]);
    // The tool's result, as the served model answered it (an untrained model: no box in its words).
    const response = /<tool_response>\n?([\s\S]*?)\n?<\/tool_response>/.exec(turns[1]!.observation.text)?.[1];
    expect(JSON.parse(response!)).toMatchObject({ task: 'grounding', boxes: [], count: 0, raw: expect.any(String) });
    expect(turns[1]!.action).toBe('<answer>A</answer>');
  }
});
