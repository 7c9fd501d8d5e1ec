import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodePng } from '@saccade/image';
import { expect, test } from 'vitest';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');

test("saccade serve tools answers verl-tool's python_code requests with its observation shapes and response fields", { timeout: 120_000 }, async () => {
  const red = new Uint8Array(40 * 30 * 3).map((_, index) => (index % 3 === 0 ? 255 : 0));
  const png = Buffer.from((await encodePng({ data: red, width: 40, height: 30, channels: 3 })).data);
  const child = spawn(process.execPath, [cli, 'serve', 'tools', '--port', '0', '--tool-options', '{"python_code": {"concurrency": 1}}'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const url = /listening on (\S+)/.exec((await lines.next()).value as string)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // As verl-tool's agent loop sends them: each action ends with the stop token it stopped at.
    const response = await fetch(`${url}/get_observation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        trajectory_ids: ['a', 'b', 'c'],
        actions: ['Measure it.\n```python\nprint(image.width, image.height, image.pixel(0, 0))\n```\n```output', '<python>print(1 / 0)</python>', '```py\nimport socket\nsocket.create_connection(("127.0.0.1", 80))\n```'],
        extra_fields: [{ images: [`data:image/png;base64,${png.toString('base64')}`] }, {}, {}],
        finish: [false, false, false],
        is_last_step: [false, false, false],
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['dones', 'observations', 'processing_time_ms', 'queue_time_ms', 'valids']);
    expect(body).toMatchObject({ dones: [false, false, false], valids: [true, true, true], processing_time_ms: expect.any(Number), queue_time_ms: expect.any(Number) });
    const [measured, divided, socket] = body.observations as string[];
    // An odd number of fences (the response opened ```output): the output and the closing fence.
    expect(measured).toBe('\n40 30 (255, 0, 0)\n```\n');
    expect(divided).toBe('\n<result>\nTraceback (most recent call last):\n  File "main.py", line 1, in <module>\n    print(1 / 0)\n          ~~^~~\nZeroDivisionError: division by zero\n</result>\n');
    expect(socket).toMatch(/^\n<result>\nTraceback \(most recent call last\):\n[\s\S]*OSError: \[Errno 23\] Host is unreachable\n<\/result>\n$/);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});
