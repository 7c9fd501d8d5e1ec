import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-eval-code-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Turn {
  action: string;
  observation: { text: string };
  info: { toolCalls?: { name: string; ok: boolean; failure?: string }[] };
}

test('saccade eval --tools python_code runs code calls in an episode: verl-tool text calls, JSON calls, and a stopped endless loop', { timeout: 120_000 }, async () => {
  // A scripted OpenAI-compatible agent: it measures the chart with a ```python block, then sends an
  // endless loop as a JSON call, then answers.
  const agent = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const content = body.includes('did not finish within')
        ? '<answer>A</answer>'
        : body.includes('```result')
          ? '<tool_call>{"name": "python_code", "arguments": {"code": "while True:\\n    pass"}}</tool_call>'
          : 'I will measure the picture.\n```python\nprint(image.width, image.height, len(images), image.pixel(0, 0))\n```';
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/v1`;
  try {
    const options = { python_code: { timeLimitMs: 1_500, concurrency: 1 } };
    const run = await runCli(
      ['eval', '--env', 'saccade/Charts-v1', '--agent', 'openai', '--base-url', agentUrl, '--model', 'scripted', '--episodes', '1', '--tools', 'python_code', '--tool-options', JSON.stringify(options), '--out', scratch, '--name', 'code'],
      { log: () => {}, error: () => {} },
    );
    expect(run.exitCode).toBe(EXIT_SUCCESS);
  } finally {
    await new Promise<void>((resolve) => agent.close(() => resolve()));
  }
  const episodes = readFileSync(join(scratch, 'code', 'trajectories', 'episodes.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { turns: Turn[] });
  expect(episodes).toHaveLength(1);
  for (const { turns } of episodes) {
    expect(turns.map((turn) => turn.info.toolCalls?.map((call) => [call.name, call.ok, call.failure ?? null]))).toEqual([
      [['python_code', true, null]],
      [['python_code', false, 'failed']],
      undefined,
    ]);
    // The env's chart is the current image; the output comes back in verl-tool's ```result block.
    expect(turns[1]!.observation.text).toMatch(/^\n```result\n\d+ \d+ 1 \(\d+, \d+, \d+\)\n```\n$/);
    expect(turns[2]!.observation.text).toBe('<tool_response>\nError: "python_code" failed: the code did not finish within 1500 ms and was stopped.\n</tool_response>');
    expect(turns[2]!.action).toBe('<answer>A</answer>');
  }
});
