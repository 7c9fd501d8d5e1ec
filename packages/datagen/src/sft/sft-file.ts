import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { contentHash, loadImage } from '@saccade/image';
import { IMAGE_PLACEHOLDER, type ImageData } from '@saccade/spec';
import { z } from 'zod';
import { describeReceived, describeZodIssue, readJsonLines } from '@saccade/core';
import { writeFileAtomic } from '@saccade/runs';
import { GroundingFileError } from '../errors/grounding-file-error';

/** How an SFT example was found: ViGoRL's MCTS over reasoning steps, or best-of-n sampling. */
export type SftMethod = 'mcts' | 'best-of-n';
/**
 * An SFT example's shape: one grounded response (single-turn), or crops coming back as turns
 * (multi-turn).
 */
export type SftForm = 'single-turn' | 'multi-turn';

/** One chat message of an SFT example: text with one `<image>` per image it shows. */
export interface SftMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** An SFT example in memory: the chat, its images in placeholder order, and where it came from. */
export interface SftRecord {
  id: string;
  taskId: string;
  dataset: string;
  method: SftMethod;
  form: SftForm;
  messages: SftMessage[];
  images: ImageData[];
  /** The final answer the chain gives. */
  answer: string;
  /** Backtracks (MCTS chains), reward, points, … */
  metadata?: Record<string, unknown>;
}

/** An SFT example as a line of the file holds it: image paths relative to the file. */
export interface SftFileRecord extends Omit<SftRecord, 'images'> {
  images: string[];
}

const messageSchema = z.object({ role: z.enum(['system', 'user', 'assistant'], { error: 'system | user | assistant' }), content: z.string({ error: 'a string' }) });

/** The schema of one line of an SFT file (LLaMA-Factory's `messages` + `images` layout, plus Saccade's fields). */
export const sftFileLineSchema = z
  .object({
    id: z.string({ error: 'a string id' }).min(1),
    taskId: z.string({ error: 'a string (the task id)' }),
    dataset: z.string({ error: 'a string (the dataset)' }),
    method: z.enum(['mcts', 'best-of-n'], { error: 'mcts | best-of-n' }),
    form: z.enum(['single-turn', 'multi-turn'], { error: 'single-turn | multi-turn' }),
    messages: z.array(messageSchema, { error: 'an array of {role, content}' }).min(2, { error: 'at least a user and an assistant message' }),
    images: z.array(z.string({ error: 'an image path' }).min(1), { error: 'an array of image paths' }),
    answer: z.string({ error: 'a string (the final answer)' }),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((record, context) => {
    const placeholders = record.messages.reduce((count, message) => count + message.content.split(IMAGE_PLACEHOLDER).length - 1, 0);
    if (placeholders !== record.images.length) {
      context.addIssue({ code: 'custom', path: ['images'], message: `one image per ${IMAGE_PLACEHOLDER} placeholder in the messages (${placeholders})` });
    }
    if (!record.messages.some((message) => message.role === 'assistant')) context.addIssue({ code: 'custom', path: ['messages'], message: 'at least one assistant message' });
  });

const EXTENSIONS: Record<ImageData['mediaType'], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Writes SFT examples as JSONL (one record a line, atomically) with their images content-addressed
 * beside it: `images/<sha256>.<ext>`, each written once. Returns the records as written.
 *
 * @example
 * {"id":"vs-0-mcts-3","taskId":"visual-search-train-0","dataset":"Procedural-VisualSearch","method":"mcts","form":"single-turn",
 *  "messages":[{"role":"system","content":"…"},{"role":"user","content":"<image>\nThere is exactly one star…"},{"role":"assistant","content":"<think>\n…\n</think>\n<answer>B</answer>"}],
 *  "images":["images/3f…a1.png"],"answer":"B","metadata":{"backtracks":1}}
 */
export function writeSftFile(file: string, records: readonly SftRecord[]): SftFileRecord[] {
  const folder = dirname(resolve(file));
  const imageFolder = join(folder, 'images');
  const written: SftFileRecord[] = records.map((record) => {
    const images = record.images.map((image) => {
      const name = `${contentHash(image.data)}.${EXTENSIONS[image.mediaType] ?? 'png'}`;
      const path = join(imageFolder, name);
      if (!existsSync(path)) {
        mkdirSync(imageFolder, { recursive: true });
        writeFileSync(path, image.data);
      }
      return relative(folder, path).split('\\').join('/');
    });
    const line: SftFileRecord = { id: record.id, taskId: record.taskId, dataset: record.dataset, method: record.method, form: record.form, messages: record.messages, images, answer: record.answer };
    if (record.metadata !== undefined) line.metadata = record.metadata;
    return line;
  });
  writeFileAtomic(file, written.map((record) => JSON.stringify(record)).join('\n') + (written.length > 0 ? '\n' : ''));
  return written;
}

/**
 * Reads an SFT file, validating every line; image paths come back absolute. Throws
 * `GroundingFileError` naming the line and field of the first bad line.
 */
export async function readSftFile(file: string): Promise<SftFileRecord[]> {
  const folder = dirname(resolve(file));
  const onOpenError = (error: Error) => new GroundingFileError({ file, field: '(file)', expected: 'a readable JSONL SFT file', received: error.message, cause: error });
  const records: SftFileRecord[] = [];
  for await (const { lineNumber: line, value: raw, error } of readJsonLines(file, { onOpenError })) {
    if (error !== undefined) throw new GroundingFileError({ file, line, field: '(line)', expected: 'a JSON object', received: `text that is not JSON (${error.message})`, cause: error });
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new GroundingFileError({ file, line, field: '(line)', expected: 'a JSON object', received: describeReceived(raw) });
    const parsed = sftFileLineSchema.safeParse(raw);
    if (!parsed.success) throw new GroundingFileError({ file, line, ...describeZodIssue(parsed.error.issues, raw, '(root)') });
    const record = parsed.data as SftFileRecord;
    record.images = record.images.map((path) => (isAbsolute(path) ? path : resolve(folder, path)));
    records.push(record);
  }
  return records;
}

/** Loads the images of a record read from a file. */
export async function loadSftImages(record: SftFileRecord): Promise<ImageData[]> {
  return Promise.all(
    record.images.map(async (path) => {
      const image = await loadImage(path);
      return { data: image.data, mediaType: image.mediaType, width: image.width, height: image.height } as ImageData;
    }),
  );
}
