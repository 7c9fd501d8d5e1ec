import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getTool, runTool, toolInputJsonSchema, ToolNotFoundError } from '@saccade/core';
import { contentHash, loadImage } from '@saccade/image';
import type { ImageData, Tool } from '@saccade/spec';
import { imageFileName } from '@saccade/rollout';
import { Command } from 'commander';
import { parseToolOptions, registerBuiltinTools, type ToolOptions } from '../builtin-tools';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { ensureOutputFolder } from '../output-folder';
import { writeFileAtomic } from '@saccade/runs';

interface RunFlags {
  toolOptions?: string;
  input: string;
  image: string[];
  batch: string[];
  out?: string;
  timeout: number;
}

/** `saccade tools list|run`: the registered tools, and one call of a tool on an image. */
export function toolsCommand(output: Output, setExitCode: (code: number) => void): Command {
  const tools = new Command('tools').description('list the built-in tools and run one on an image');

  tools
    .command('list')
    .description('list the registered tools')
    .option('--json', 'print JSON (with each input schema)')
    .option('--tool-options <json>', 'settings of tools by name, JSON or @file (see saccade tools run)')
    .action(async (options: { json?: boolean; toolOptions?: string }) => {
      const settings = toolOptionsOrUsage(options.toolOptions);
      if (settings === undefined) return;
      const registeredTools = await registerOrUsage(settings);
      if (registeredTools === undefined) return;
      const { tools: registered, close } = registeredTools;
      await close();
      const rows = [...registered].sort((a, b) => a.name.localeCompare(b.name));
      if (options.json) {
        output.log(JSON.stringify(rows.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) }))));
      } else for (const tool of rows) output.log(`${tool.name.padEnd(22)} ${tool.description}`);
      setExitCode(EXIT_SUCCESS);
    });

  tools
    .command('run')
    .description("run one tool call and print the result as JSON")
    .argument('<tool>', 'tool name, e.g. image_zoom_in_tool (see saccade tools list)')
    .option('--input <json>', 'the arguments as JSON, or @file to read them from a file', '{}')
    .option('--image <path>', "an image of the episode (repeatable; the first is the original)", (value: string, previous: string[]) => [...previous, value], [])
    .option('--batch <path>', 'one call per image: an image file or a folder of them (repeatable); the tool and its models load once; prints one JSON line per image', (value: string, previous: string[]) => [...previous, value], [])
    .option('--out <folder>', 'write the images of the result into this folder (default: only their size and hash are printed)')
    .option('--timeout <ms>', 'time limit of the call', Number, 30_000)
    .option('--tool-options <json>', 'settings of tools by name, JSON or @file, e.g. \'{"detect": {"model": "yolo11n.onnx", "labels": "labels.txt"}}\'')
    .action(async (name: string, flags: RunFlags) => {
      const settings = toolOptionsOrUsage(flags.toolOptions);
      if (settings === undefined) return;
      const registeredTools = await registerOrUsage(settings);
      if (registeredTools === undefined) return;
      const { close } = registeredTools;
      try {
        await runOne(name, flags, output, setExitCode);
      } finally {
        await close();
      }
    });

  /** The parsed --tool-options, or undefined after reporting a usage error. */
  function toolOptionsOrUsage(text: string | undefined): ToolOptions | undefined {
    try {
      return parseToolOptions(text);
    } catch (error) {
      output.error((error as Error).message);
      setExitCode(EXIT_USAGE);
      return undefined;
    }
  }

  /** registerBuiltinTools, or undefined after reporting settings for a tool that takes none (a usage error). */
  async function registerOrUsage(settings: ToolOptions): Promise<Awaited<ReturnType<typeof registerBuiltinTools>> | undefined> {
    try {
      return await registerBuiltinTools(settings);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('--tool-options')) throw error;
      output.error(error.message);
      setExitCode(EXIT_USAGE);
      return undefined;
    }
  }

  return tools;
}

async function runOne(name: string, flags: RunFlags, output: Output, setExitCode: (code: number) => void): Promise<void> {
  const usage = (message: string): void => {
    output.error(message);
    setExitCode(EXIT_USAGE);
  };
  let tool: Tool;
  try {
    tool = getTool(name);
  } catch (error) {
    if (ToolNotFoundError.isInstance(error)) return usage(error.message);
    throw error;
  }
  let input: unknown;
  try {
    const text = flags.input.startsWith('@') ? readFileSync(flags.input.slice(1), 'utf8') : flags.input;
    input = JSON.parse(text);
  } catch (error) {
    return usage(`--input: expected JSON arguments (or @file), e.g. '{"bbox_2d": [0, 0, 100, 100]}': ${(error as Error).message}`);
  }
  const images: ImageData[] = [];
  for (const path of flags.image) {
    if (!existsSync(path)) return usage(`--image: ${path} does not exist`);
    try {
      const image = await loadImage(resolve(path));
      images.push({ data: image.data, mediaType: image.mediaType, width: image.width, height: image.height });
    } catch (error) {
      return usage(`--image: ${path} is not a readable PNG, JPEG or WebP image: ${(error as Error).message}`);
    }
  }
  if (!Number.isFinite(flags.timeout) || flags.timeout <= 0) return usage(`--timeout: expected a positive number of milliseconds, received ${String(flags.timeout)}`);
  // Checked before the call: a tool's minute of work should not end on a folder that cannot be made.
  if (flags.out !== undefined) ensureOutputFolder(flags.out, '--out');
  if (flags.batch.length > 0) return runBatch(name, tool, input, flags, output, setExitCode, usage);

  const result = await runTool(tool, input, { images, timeoutMs: flags.timeout });
  if (!result.ok) {
    output.log(JSON.stringify({ tool: name, ok: false, kind: result.kind, error: result.message, durationMs: result.durationMs }, null, 2));
    // Bad arguments are the caller's to fix; a tool that fails or hangs is a failure.
    setExitCode(result.kind === 'invalid-arguments' ? EXIT_USAGE : EXIT_FAILURE);
    return;
  }
  const described = (result.result.images ?? []).map((image) => {
    const hash = contentHash(image.data);
    const entry: Record<string, unknown> = { mediaType: image.mediaType, width: image.width, height: image.height, bytes: image.data.byteLength, sha256: hash };
    if (flags.out !== undefined) {
      const file = join(flags.out, imageFileName({ hash, mediaType: image.mediaType }));
      writeFileAtomic(file, image.data);
      entry['file'] = file;
    }
    return entry;
  });
  const printed: Record<string, unknown> = { tool: name, ok: true, durationMs: result.durationMs };
  if (result.result.text !== undefined) printed['text'] = result.result.text;
  // Tools answer with JSON text (OCR, detect): parsed, so that a script reads it without a second parse.
  const parsed = parseJsonObject(result.result.text);
  if (parsed !== undefined) printed['json'] = parsed;
  printed['images'] = described;
  output.log(JSON.stringify(printed, null, 2));
  setExitCode(EXIT_SUCCESS);
}

const IMAGE_FILE = /\.(png|jpe?g|webp)$/i;

/**
 * `--batch`: each image (files, and the images of folders, sorted by name) is its own call, with the
 * --image images after it; one JSON line per image, in order. The tool stays loaded between calls (OCR
 * opens its models once). Exit code: failure when any call failed.
 */
async function runBatch(name: string, tool: Tool, input: unknown, flags: RunFlags, output: Output, setExitCode: (code: number) => void, usage: (message: string) => void): Promise<void> {
  const files: string[] = [];
  for (const path of flags.batch) {
    if (!existsSync(path)) return usage(`--batch: ${path} does not exist`);
    if (statSync(path).isDirectory()) {
      const found = readdirSync(path).filter((entry) => IMAGE_FILE.test(entry)).sort().map((entry) => join(path, entry));
      if (found.length === 0) return usage(`--batch: expected PNG, JPEG or WebP images in the folder ${path}, found none`);
      files.push(...found);
    } else files.push(path);
  }
  const extra: ImageData[] = [];
  for (const path of flags.image) {
    const image = await loadImage(resolve(path));
    extra.push({ data: image.data, mediaType: image.mediaType, width: image.width, height: image.height });
  }
  let failed = false;
  for (const file of files) {
    let image: ImageData;
    try {
      const loaded = await loadImage(resolve(file));
      image = { data: loaded.data, mediaType: loaded.mediaType, width: loaded.width, height: loaded.height };
    } catch (error) {
      failed = true;
      output.log(JSON.stringify({ tool: name, image: file, ok: false, kind: 'unreadable-image', error: `not a readable PNG, JPEG or WebP image: ${(error as Error).message}` }));
      continue;
    }
    const result = await runTool(tool, input, { images: [image, ...extra], timeoutMs: flags.timeout });
    if (!result.ok) {
      failed = true;
      output.log(JSON.stringify({ tool: name, image: file, ok: false, kind: result.kind, error: result.message, durationMs: result.durationMs }));
      continue;
    }
    const printed: Record<string, unknown> = { tool: name, image: file, ok: true, durationMs: result.durationMs };
    if (result.result.text !== undefined) printed['text'] = result.result.text;
    const parsed = parseJsonObject(result.result.text);
    if (parsed !== undefined) printed['json'] = parsed;
    printed['images'] = (result.result.images ?? []).map((produced) => ({ mediaType: produced.mediaType, width: produced.width, height: produced.height, bytes: produced.data.byteLength, sha256: contentHash(produced.data) }));
    output.log(JSON.stringify(printed));
  }
  setExitCode(failed ? EXIT_FAILURE : EXIT_SUCCESS);
}

function parseJsonObject(text: string | undefined): unknown {
  if (text === undefined || !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
