import { open, readFile } from 'node:fs/promises';
import { describeReceived, readJsonLines } from '@saccade/core';
import { GroundingFileError } from '../errors/grounding-file-error';

/** One record of a JSON or JSONL file, or why its text is not one: `line` is where the record begins. */
export type JsonRecord = { line: number; value: Record<string, unknown> } | { line: number; problem: GroundingFileError };

/**
 * The records of a data file, each with the line it begins on: JSONL (one object a line, as
 * Saccade and OpenAI write them) or one JSON array of objects (as LLaMA-Factory's and LLaVA's
 * `.json` files are). A line of JSONL that is not an object is a `problem` the caller may skip;
 * a file that cannot be read, or a JSON array that does not parse, throws.
 */
export async function* readJsonRecords(file: string): AsyncGenerator<JsonRecord> {
  const unreadable = (error: unknown) => new GroundingFileError({ file, field: '(file)', expected: 'a readable JSON or JSONL file', received: (error as Error).message, cause: error });
  let first: string | undefined;
  try {
    first = await firstCharacter(file);
  } catch (error) {
    throw unreadable(error);
  }
  if (first === '[') {
    yield* readJsonArray(file);
    return;
  }
  for await (const { lineNumber: line, value, error } of readJsonLines(file, { onOpenError: unreadable })) {
    if (error !== undefined) {
      yield { line, problem: new GroundingFileError({ file, line, field: '(line)', expected: 'a JSON object', received: `text that is not JSON (${error.message})`, cause: error }) };
    } else {
      yield isObject(value) ? { line, value } : { line, problem: new GroundingFileError({ file, line, field: '(line)', expected: 'a JSON object', received: describeReceived(value) }) };
    }
  }
}

/** The file's first character that is not white space (a BOM counts as white space); undefined for an empty file. */
async function firstCharacter(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return undefined;
      const found = /[^\s\uFEFF]/.exec(buffer.toString('utf8', 0, bytesRead));
      if (found) return found[0];
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

async function* readJsonArray(file: string): AsyncGenerator<JsonRecord> {
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 names the offset ("… at position 123"): the line is what a user can go to.
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : lineAt(text, Number(position));
    throw new GroundingFileError({ file, ...(line === undefined ? {} : { line }), field: '(file)', expected: 'a JSON array of records (or JSONL)', received: `text that is not JSON (${message})`, cause: error });
  }
  const items = parsed as unknown[];
  const lines = elementLines(text);
  for (const [index, value] of items.entries()) {
    const line = lines[index] ?? 1;
    yield isObject(value) ? { line, value } : { line, problem: new GroundingFileError({ file, line, field: `[${index}]`, expected: 'a JSON object', received: describeReceived(value) }) };
  }
}

/** The 1-based line each element of a top-level JSON array starts on (the text is known to parse). */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectElement && !/\s/.test(char) && char !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < Math.min(offset, text.length); index++) if (text[index] === '\n') line++;
  return line;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
