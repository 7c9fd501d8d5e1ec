import { checkTool, runTool } from '@saccade/core';
import { encodePng } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCodeSandboxes, createCodeTool, warmCodeSandboxes } from './code-tool';

// One interpreter for the file: starting one takes seconds, and the tests below that end it pay once each.
const tool = createCodeTool({ concurrency: 1, timeLimitMs: 3_000, memoryLimitMb: 192, maxOutputBytes: 200_000 });
const run = (code: string, images: ImageData[] = []) => runTool(tool, { code }, { images, timeoutMs: 60_000 });
const text = async (code: string, images: ImageData[] = []) => {
  const result = await run(code, images);
  if (!result.ok) throw new Error(`expected a result, received ${result.kind}: ${result.message}`);
  return result.result.text;
};

// A 4 × 2 image: the top row red, green, blue, white; the bottom row black.
let picture: ImageData;

beforeAll(async () => {
  const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, ...new Array(12).fill(0)]);
  picture = await encodePng({ data: rgb, width: 4, height: 2, channels: 3 });
  await warmCodeSandboxes();
}, 60_000);

afterAll(() => closeCodeSandboxes());

describe('python_code', () => {
  it('returns stdout then stderr, as python3 prints them, with verl-tool pre-imports', async () => {
    expect(await text('print(sqrt(16), Counter("abca")["a"])\nprint(json.dumps({"x": 1}))')).toBe('4.0 2\n{"x": 1}');
    expect(await text('import sys\nprint("out")\nprint("err", file=sys.stderr)')).toBe('out\n\nerr');
    expect(await text('print("before")\n1 / 0')).toBe(
      'before\n\nTraceback (most recent call last):\n  File "main.py", line 2, in <module>\n    1 / 0\n    ~~^~~\nZeroDivisionError: division by zero',
    );
    expect(await text('def f(:\n    pass')).toBe('File "main.py", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax');
    expect(await text('print(input() * 2)', [])).toBe('Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n    print(input() * 2)\n          ~~~~~^^\nEOFError: EOF when reading a line');
    const withInput = await runTool(tool, { code: 'print(int(input()) + 1)', stdin: '41\n' });
    expect(withInput).toMatchObject({ ok: true, result: { text: '42' } });
  }, 30_000);

  it('lets the code compute on the current image (pixels and file)', async () => {
    const code = [
      'import os',
      'print(image.width, image.height, image.pixel(0, 0), image.pixel(3, 0), image.pixel(2, 1))',
      'red = sum(1 for i in range(0, len(image.rgb), 3) if image.rgb[i] > 200 and image.rgb[i + 1] < 50)',
      'print(red, len(images))',
      'data = open("image.png", "rb").read()',
      'print(data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"), sorted(os.listdir(".")))',
    ].join('\n');
    expect(await text(code, [picture])).toBe("4 2 (255, 0, 0) (255, 255, 255) (0, 0, 0)\n1 1\nTrue 4 2 ['image.png', 'images', 'main.py']");
    expect(await text('print(image)')).toBe('None');
  }, 30_000);

  it('starts each call fresh: names, modules, builtins and files of the last call are gone', async () => {
    expect(await text('import math, builtins\nsecret = 1\nmath.pi = 3\nbuiltins.marker = 7\nopen("note.txt", "w").write("x")\nprint(marker, math.pi)')).toBe('7 3');
    expect(await text('import builtins, math, os\nprint("secret" in globals(), round(math.pi, 5), hasattr(builtins, "marker"), os.path.exists("note.txt"))')).toBe('False 3.14159 False False');
  }, 30_000);

  it('cannot read host files, reach the network or the JavaScript side', async () => {
    expect(await text('print(open("/etc/passwd").read())')).toMatch(/FileNotFoundError: \[Errno 44\] No such file or directory: '\/etc\/passwd'$/);
    expect(await text('import os\nprint(sorted(os.listdir("/")))')).toBe("['dev', 'home', 'lib', 'proc', 'scratch', 'tmp']");
    expect(await text('import socket\ns = socket.socket()\ns.connect(("127.0.0.1", 80))\nprint("connected")')).toMatch(/OSError: \[Errno 23\] Host is unreachable$/);
    expect(await text('import urllib.request\nurllib.request.urlopen("http://127.0.0.1:80/")')).toMatch(/urllib\.error\.URLError: <urlopen error \[Errno 23\] Host is unreachable>$/);
    expect(await text('import js')).toMatch(/ImportError: the module 'js' is not available in the sandbox \(no JavaScript, no network, no package installs\)$/);
    expect(await text('import pyodide_js')).toMatch(/ImportError: the module 'pyodide_js' is not available in the sandbox/);
    expect(await text('import numpy')).toMatch(/ModuleNotFoundError: No module named 'numpy' \(the sandbox has Python's standard library only: no numpy, PIL or other packages\)$/);
    // Past the import guard (any JavaScript object leads to the Function constructor): no code from strings.
    const escape = 'import sys\nsys.meta_path[:] = [f for f in sys.meta_path if "Guard" not in type(f).__name__]\nfrom pyodide.ffi import to_js\nprint(to_js([]).constructor.constructor("return process.pid")())';
    expect(await text(escape)).toMatch(/EvalError: making code from strings is disabled in the sandbox$/);
  }, 30_000);

  it('stops hostile code with a clear error and keeps working', async () => {
    expect(await run('x = bytearray(1024 * 1024 * 1024)')).toMatchObject({ ok: false, kind: 'failed', message: `"python_code" failed: the code needed more than the sandbox's 192 MB of memory and was stopped` });
    expect(await run('import sys\nsys.setrecursionlimit(10**6)\ndef down(n):\n    return down(n + 1)\ndown(0)')).toMatchObject({ ok: true, result: { text: expect.stringMatching(/RecursionError: maximum recursion depth exceeded$/) } });
    expect(await run('while True:\n    print("x" * 10_000)')).toMatchObject({ ok: false, kind: 'failed', message: '"python_code" failed: the code printed more than 200000 bytes and was stopped' });
    expect(await text('print("still here")')).toBe('still here');
    expect(await run('while True:\n    pass')).toMatchObject({ ok: false, kind: 'failed', message: '"python_code" failed: the code did not finish within 3000 ms and was stopped' });
    expect(await run('blocks = []\nwhile True:\n    blocks.append(bytearray(1024 * 1024))')).toMatchObject({ ok: false, kind: 'failed', message: `"python_code" failed: the code needed more than the sandbox's 192 MB of memory and was stopped` });
    expect(await text('print("up again")')).toBe('up again');
  }, 60_000);

  it('refuses empty code and passes checkTool', async () => {
    expect(await runTool(tool, { code: '  ' })).toMatchObject({ ok: false, kind: 'invalid-arguments', message: 'invalid arguments for "python_code": code: expected Python code, received an empty string' });
    expect(await checkTool(tool, { sampleInput: { code: 'print(1 + 1)' }, images: [picture], timeoutMs: 30_000 })).toEqual({ ok: true, toolName: 'python_code', failures: [] });
  }, 60_000);
});
