import { defineTool } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import type { ImageData, Tool } from '@saccade/spec';
import { z } from 'zod';
import { PythonSandbox, type SandboxFile, type SandboxImage } from './python-sandbox';
import { formatVerlPythonObservation, readVerlPythonCall, verlExecutionResult } from './verl-python-format';

/** Settings of {@link createCodeTool}: its name and the sandbox's limits. */
export interface CodeToolSettings {
  /** The name the model calls (default `python_code`, verl-tool's). */
  name?: string;
  /** Wall-clock time of one call (default 10,000 ms, verl-tool's `TIMEOUT`). */
  timeLimitMs?: number;
  /** The interpreter's wasm memory: Python's heap, the scratch folder and the images (default 512 MB). */
  memoryLimitMb?: number;
  /** Bytes a call may print before it is stopped (default 1,000,000); the text the model reads is cut at 100,000 characters, as verl-tool cuts it. */
  maxOutputBytes?: number;
  /** JavaScript heap of each interpreter's thread (default 256 MB). */
  heapLimitMb?: number;
  /** Interpreters running calls at once (default 2; each holds ~60 MB once started). */
  concurrency?: number;
  /** Run verl-tool's pre-imports before the code (`from math import *`, `import json`, …; default true). */
  preImport?: boolean;
  /** Longest code accepted (default 100,000 characters). */
  maxCodeLength?: number;
}

const input = z.object({
  code: z.string().trim().min(1, 'expected Python code, received an empty string').describe('Python 3 source. Print what you want to see; `image` is the current image (width, height, rgb bytes, pixel(x, y)), `images` all of the episode\'s, and image.png its file.'),
  stdin: z.string().optional().describe('Text the code reads from standard input.'),
});

type CodeInput = z.output<typeof input>;

const FILE_EXTENSIONS: Record<ImageData['mediaType'], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const decoded = new WeakMap<ImageData, Promise<{ width: number; height: number; rgb: Uint8Array }>>();

function decodeOnce(image: ImageData) {
  let pixels = decoded.get(image);
  if (pixels === undefined) {
    pixels = decodeImage(image.data, { channels: 3 }).then(({ width, height, data }) => ({ width, height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }));
    decoded.set(image, pixels);
  }
  return pixels;
}

/** The episode's images as the sandbox shows them: `images/<i>.<ext>` each, `image.<ext>` the latest, and their pixels. */
async function sandboxImages(images: ImageData[]): Promise<{ files: SandboxFile[]; shown: SandboxImage[] }> {
  const files: SandboxFile[] = [];
  const shown: SandboxImage[] = [];
  for (const [index, image] of images.entries()) {
    const path = `images/${index}.${FILE_EXTENSIONS[image.mediaType] ?? 'png'}`;
    files.push({ path, data: image.data });
    const { width, height, rgb } = await decodeOnce(image);
    shown.push({ width, height, rgb, path });
  }
  const latest = images.at(-1);
  if (latest !== undefined) files.push({ path: `image.${FILE_EXTENSIONS[latest.mediaType] ?? 'png'}`, data: latest.data });
  return { files, shown };
}

const sandboxes = new Set<PythonSandbox>();

/**
 * verl-tool's `python_code`: runs Python 3 (CPython in WebAssembly, Pyodide, standard library only)
 * and returns what it printed, stdout then stderr (an uncaught exception's traceback, as python3
 * prints it), as verl-tool's tool server does. Calls come as `<tool_call>` JSON `{"code"}` or, as
 * verl-tool reads them, as ```` ```python ```` blocks or `<python>` tags in the response's text
 * (then the output comes back in verl-tool's ```` ```result ```` shape).
 *
 * Each call runs in a fresh namespace and in-memory scratch folder with the episode's images in it
 * (`image.png`, `images/0.png`, … and `image`/`images` objects with their RGB pixels), no network
 * and no host files, a wall-clock limit, a memory limit and an output limit: code past a limit
 * fails the call with a message and the interpreter is replaced, the process stays up.
 */
export function createCodeTool(settings: CodeToolSettings = {}): Tool<CodeInput> {
  const { name = 'python_code', timeLimitMs = 10_000, memoryLimitMb = 512, maxOutputBytes = 1_000_000, heapLimitMb = 256, concurrency = 2, preImport = true, maxCodeLength = 100_000 } = settings;
  for (const [key, value] of Object.entries({ timeLimitMs, memoryLimitMb, maxOutputBytes, heapLimitMb, concurrency, maxCodeLength })) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`expected ${key} to be a positive integer, received ${JSON.stringify(value)}`);
  }
  const sandbox = new PythonSandbox({ timeLimitMs, memoryLimitMb, maxOutputBytes, heapLimitMb, concurrency });
  sandboxes.add(sandbox);
  return defineTool({
    name,
    description:
      "Run Python 3 code (standard library only: no numpy or PIL) in a sandbox and read what it prints. `image` is the current image: image.width, image.height, image.rgb (bytes, 3 per pixel, row by row), image.pixel(x, y) → (r, g, b); `images` lists the episode's images, original first; their files are image.png and images/0.png, …. No network, no files outside the working folder; each call starts fresh.",
    inputSchema: input,
    async execute({ code, stdin }, { images, signal }) {
      if (code.length > maxCodeLength) throw new Error(`expected code of at most ${maxCodeLength} characters, received ${code.length}`);
      const { files, shown } = await sandboxImages(images);
      signal?.throwIfAborted();
      sandbox.reopen();
      const result = await sandbox.run({ code, ...(stdin === undefined ? {} : { stdin }), files, images: shown, preImport }, signal);
      return { text: verlExecutionResult(result.stdout, result.stderr) };
    },
    textCalls: {
      read: (response) => readVerlPythonCall(response),
      format: formatVerlPythonObservation,
    },
  });
}

/** Starts the interpreters of every code tool made so far (a tool server calls it before its first request). */
export async function warmCodeSandboxes(): Promise<void> {
  await Promise.all([...sandboxes].map((sandbox) => sandbox.warm()));
}

/** Ends the interpreters of every code tool made so far; a later call starts a new one. */
export async function closeCodeSandboxes(): Promise<void> {
  await Promise.all([...sandboxes].map((sandbox) => sandbox.close()));
}

/** The python_code tool with default settings. */
export const codeTool = createCodeTool();
