import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeReceived, describeZodIssue } from '@saccade/core';
import { IMAGE_PLACEHOLDER } from '@saccade/spec';
import { z } from 'zod';
import { GroundingFileError } from '../errors/grounding-file-error';
import { SHAREGPT_DEFAULTS, type DatasetColumns } from './dataset-info';
import { sftFileLineSchema, type SftMessage } from './sft-file';

/**
 * The layouts an SFT file's records may have: Saccade's own chains (`saccade data generate`),
 * LLaMA-Factory's ShareGPT (`conversations` or `messages` + `images`, its `dataset_info.json`
 * mapping where one names the file) and alpaca, LLaVA's `conversations` + `image`, and OpenAI chat
 * messages with `image_url` parts.
 */
export type SftLayout = 'saccade' | 'sharegpt' | 'llava' | 'alpaca' | 'openai';

/** A record of an SFT file in any layout, as the trainer takes it: a chat and its images. */
export interface SftExample {
  /** The record's own id, or `<file name>:<line>`. */
  id: string;
  layout: SftLayout;
  file: string;
  /** The line the record begins on. */
  line: number;
  /** The chat, with one `<image>` per image in placeholder order. */
  messages: SftMessage[];
  /** Absolute paths inside the file's folder, or `data:` URLs (OpenAI's inline images). */
  images: string[];
  /** Saccade's chains: the task, dataset and method that made the chain. */
  taskId?: string;
  dataset?: string;
  method?: string;
}

/** Where a record comes from: the file, its folder (images must lie inside it), and LLaMA-Factory's mapping for it. */
export interface SftRecordContext {
  file: string;
  line: number;
  /** The real path of the file's folder. */
  folder: string;
  /** The file's `dataset_info.json` entry, when one names it. */
  columns?: DatasetColumns;
}

const LAYOUTS =
  "a record of a known SFT layout: Saccade's chain (taskId, method, messages, images), LLaMA-Factory ShareGPT (conversations or messages, images), " +
  'LLaVA (conversations with from human|gpt, image), OpenAI chat (messages with image_url parts) or alpaca (instruction, output)';

/** Recognises a record's layout by its keys (or by the file's `dataset_info.json` entry). */
export function detectSftLayout(raw: Record<string, unknown>, columns?: DatasetColumns): SftLayout | undefined {
  if (columns !== undefined) return columns.formatting;
  if ('taskId' in raw || 'method' in raw || 'form' in raw) return 'saccade';
  if (Array.isArray(raw['conversations'])) return 'image' in raw ? 'llava' : 'sharegpt';
  const messages = raw['messages'];
  if (Array.isArray(messages)) {
    const parts = messages.some((message) => typeof message === 'object' && message !== null && Array.isArray((message as { content?: unknown }).content));
    return parts || !('images' in raw) ? 'openai' : 'sharegpt';
  }
  if ('instruction' in raw && 'output' in raw) return 'alpaca';
  return undefined;
}

/**
 * One record of an SFT file as an {@link SftExample}. Throws `GroundingFileError` naming the line
 * and field when the record is not what its layout says, or an image is missing or outside the
 * file's folder.
 */
export function toSftExample(raw: Record<string, unknown>, context: SftRecordContext): SftExample {
  const layout = detectSftLayout(raw, context.columns);
  if (layout === undefined) fail(context, '(record)', LAYOUTS, `an object with keys ${Object.keys(raw).join(', ') || '(none)'}`);
  const ownId = raw['id'];
  const id = typeof ownId === 'string' && ownId.length > 0 ? ownId : typeof ownId === 'number' ? String(ownId) : `${basename(context.file)}:${context.line}`;
  const base = { id, layout, file: context.file, line: context.line };
  switch (layout) {
    case 'saccade': {
      const parsed = sftFileLineSchema.safeParse(raw);
      if (!parsed.success) throw new GroundingFileError({ file: context.file, line: context.line, ...describeZodIssue(parsed.error.issues, raw, '(root)') });
      const record = parsed.data;
      return { ...base, messages: record.messages, images: resolveImages(record.images, 'images', context), taskId: record.taskId, dataset: record.dataset, method: record.method };
    }
    case 'openai':
      return { ...base, ...openAiChat(raw, context) };
    case 'alpaca':
      return { ...base, ...alpacaChat(raw, context, context.columns ?? SHAREGPT_DEFAULTS) };
    case 'llava':
      return { ...base, ...shareGptChat(raw, context, { ...SHAREGPT_DEFAULTS, columns: { ...SHAREGPT_DEFAULTS.columns, images: 'image' } }) };
    case 'sharegpt': {
      // Without a dataset_info.json entry: `conversations` with LLaMA-Factory's defaults, or `messages` with role/content (its mllm_demo mapping).
      const columns =
        context.columns ??
        (Array.isArray(raw['conversations'])
          ? { ...SHAREGPT_DEFAULTS, columns: { ...SHAREGPT_DEFAULTS.columns, images: 'images' } }
          : { ...SHAREGPT_DEFAULTS, columns: { ...SHAREGPT_DEFAULTS.columns, messages: 'messages', images: 'images' }, tags: { ...SHAREGPT_DEFAULTS.tags, role: 'role', content: 'content', user: 'user', assistant: 'assistant' } });
      return { ...base, ...shareGptChat(raw, context, columns) };
    }
  }
}

type Chat = { messages: SftMessage[]; images: string[] };

function shareGptChat(raw: Record<string, unknown>, context: SftRecordContext, { columns, tags }: DatasetColumns): Chat {
  const roles: Record<string, SftMessage['role']> = { [tags.user]: 'user', [tags.observation]: 'user', [tags.assistant]: 'assistant', [tags.function]: 'assistant', [tags.system]: 'system' };
  const roleNames = [tags.user, tags.assistant, tags.observation, tags.function, tags.system].join(' | ');
  const turn = z.looseObject({ [tags.role]: z.enum(Object.keys(roles) as [string, ...string[]], { error: roleNames }), [tags.content]: z.string({ error: 'a string' }) });
  const schema = z.looseObject({
    [columns.messages]: z.array(turn, { error: `an array of {${tags.role}, ${tags.content}} messages` }).min(1, { error: 'at least one message' }),
    ...(columns.system === undefined ? {} : { [columns.system]: z.string({ error: 'a string (the system prompt)' }).optional() }),
  });
  const record = parse(schema, raw, context) as Record<string, unknown>;
  const turns = record[columns.messages] as Array<Record<string, string>>;
  const messages: SftMessage[] = turns.map((message) => ({ role: roles[message[tags.role]!]!, content: message[tags.content]! }));
  const system = columns.system === undefined ? undefined : (record[columns.system] as string | undefined);
  // A system turn in the messages overrides the system column, as in LLaMA-Factory.
  if (system !== undefined && system.length > 0 && messages[0]?.role !== 'system') messages.unshift({ role: 'system', content: system });
  return finish(messages, imagePaths(raw, columns.images, context), columns.images ?? 'images', columns.messages, context);
}

function alpacaChat(raw: Record<string, unknown>, context: SftRecordContext, { columns }: DatasetColumns): Chat {
  const schema = z.looseObject({
    [columns.prompt]: z.string({ error: 'a string (the instruction)' }),
    [columns.query]: z.string({ error: 'a string (the input)' }).optional(),
    [columns.response]: z.string({ error: 'a string (the response)' }),
    ...(columns.system === undefined ? {} : { [columns.system]: z.string({ error: 'a string (the system prompt)' }).optional() }),
    ...(columns.history === undefined ? {} : { [columns.history]: z.array(z.tuple([z.string(), z.string()]), { error: 'an array of [instruction, response] pairs' }).optional() }),
  });
  const record = parse(schema, raw, context) as Record<string, unknown>;
  const messages: SftMessage[] = [];
  const system = columns.system === undefined ? undefined : (record[columns.system] as string | undefined);
  if (system !== undefined && system.length > 0) messages.push({ role: 'system', content: system });
  for (const [prompt, response] of (columns.history === undefined ? undefined : (record[columns.history] as Array<[string, string]> | undefined)) ?? []) {
    messages.push({ role: 'user', content: prompt }, { role: 'assistant', content: response });
  }
  const query = record[columns.query] as string | undefined;
  const prompt = record[columns.prompt] as string;
  // LLaMA-Factory's user turn: the instruction, then the input on the next line.
  messages.push({ role: 'user', content: query !== undefined && query.length > 0 ? `${prompt}\n${query}` : prompt }, { role: 'assistant', content: record[columns.response] as string });
  return finish(messages, imagePaths(raw, columns.images ?? 'images', context), columns.images ?? 'images', columns.prompt, context);
}

const textPart = z.object({ type: z.literal('text'), text: z.string({ error: 'a string' }) });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.union([z.string(), z.looseObject({ url: z.string({ error: 'a string' }), detail: z.string().optional() })], { error: 'a URL, or {url, detail?}' }),
});
const openAiMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool'], { error: 'system | developer | user | assistant | tool' }),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textPart, imagePart], { error: 'a {type: "text", text} or {type: "image_url", image_url} part' }))], { error: 'a string or an array of content parts' }),
  weight: z.union([z.literal(0), z.literal(1)], { error: '0 or 1' }).optional(),
});
const openAiRecord = z.looseObject({ messages: z.array(openAiMessage, { error: 'an array of chat messages' }).min(1, { error: 'at least one message' }) });

function openAiChat(raw: Record<string, unknown>, context: SftRecordContext): Chat {
  const record = parse(openAiRecord, raw, context);
  const messages: SftMessage[] = [];
  const images: string[] = [];
  for (const [index, message] of record.messages.entries()) {
    const role = message.role === 'developer' ? 'system' : message.role === 'tool' ? 'user' : message.role;
    // An assistant turn left out of the loss has no place in a chat the trainer learns every assistant turn of.
    if (message.weight === 0) fail(context, `messages[${index}].weight`, 'no weight, or 1 (every assistant message is learned)', '0');
    if (typeof message.content === 'string') {
      messages.push({ role, content: message.content });
      continue;
    }
    const text = message.content.map((part, at) => {
      if (part.type === 'text') return part.text;
      if (role !== 'user') fail(context, `messages[${index}].content[${at}]`, 'images only in user messages', `an image in a ${message.role} message`);
      images.push(resolveImage(typeof part.image_url === 'string' ? part.image_url : part.image_url.url, `messages[${index}].content[${at}].image_url`, context));
      return IMAGE_PLACEHOLDER;
    });
    messages.push({ role, content: text.join('') });
  }
  return finish(messages, images, 'messages', 'messages', context);
}

/** Checks what every layout shares: an assistant turn to learn, one image per placeholder. */
function finish(messages: SftMessage[], images: string[], imagesField: string, messagesField: string, context: SftRecordContext): Chat {
  if (!messages.some((message) => message.role === 'assistant')) fail(context, messagesField, 'at least one assistant message', `roles ${messages.map((message) => message.role).join(', ')}`);
  const placeholders = messages.reduce((count, message) => count + message.content.split(IMAGE_PLACEHOLDER).length - 1, 0);
  if (placeholders !== images.length) fail(context, imagesField, `one image per ${IMAGE_PLACEHOLDER} placeholder in the messages (${placeholders})`, `${images.length} image${images.length === 1 ? '' : 's'}`);
  return { messages, images };
}

/** The images column: a list of paths, or (LLaVA's `image`) one path or a list. */
function imagePaths(raw: Record<string, unknown>, column: string | undefined, context: SftRecordContext): string[] {
  if (column === undefined) return [];
  const value = raw[column];
  if (value === undefined || value === null) return [];
  const paths = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string' && path.length > 0)) fail(context, column, 'an image path or an array of image paths', describeReceived(value));
  return resolveImages(paths as string[], column, context);
}

function resolveImages(paths: readonly string[], field: string, context: SftRecordContext): string[] {
  return paths.map((path, index) => resolveImage(path, `${field}[${index}]`, context));
}

/**
 * An image reference as a path inside the file's folder (or a `data:` URL). URLs of servers are
 * refused: Saccade downloads nothing while training. A path that leaves the folder (`..`, an
 * absolute path elsewhere, a link out of it) is refused, so that a file names only its own images.
 */
function resolveImage(reference: string, field: string, context: SftRecordContext): string {
  if (/^data:/i.test(reference)) return reference;
  const expected = `an image file inside ${context.folder} (a path relative to the SFT file) or a data: URL`;
  let path = reference;
  if (/^file:/i.test(reference)) path = fileURLToPath(reference);
  else if (/^[a-z][a-z\d+.-]+:\/\//i.test(reference)) fail(context, field, `${expected}; nothing is downloaded`, JSON.stringify(reference));
  const resolved = resolve(context.folder, path);
  if (!inside(context.folder, resolved)) fail(context, field, expected, `${JSON.stringify(reference)}, which is outside the folder`);
  if (!existsSync(resolved) || !statSync(resolved).isFile()) fail(context, field, expected, `${JSON.stringify(reference)}, which does not exist`);
  if (!inside(context.folder, realpathSync(resolved))) fail(context, field, expected, `${JSON.stringify(reference)}, a link to outside the folder`);
  return resolved;
}

function inside(folder: string, path: string): boolean {
  const fromFolder = relative(folder, path);
  return fromFolder.length > 0 && fromFolder !== '..' && !fromFolder.startsWith(`..${sep}`) && !isAbsolute(fromFolder);
}

function parse<T extends z.ZodType>(schema: T, raw: Record<string, unknown>, context: SftRecordContext): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new GroundingFileError({ file: context.file, line: context.line, ...describeZodIssue(parsed.error.issues, raw, '(record)') });
  return parsed.data;
}

function fail(context: SftRecordContext, field: string, expected: string, received: string): never {
  throw new GroundingFileError({ file: context.file, line: context.line, field, expected, received });
}
