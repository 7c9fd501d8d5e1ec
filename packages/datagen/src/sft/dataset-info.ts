import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeZodIssue } from '@saccade/core';
import { z } from 'zod';
import { GroundingFileError } from '../errors/grounding-file-error';

/**
 * How LLaMA-Factory reads a dataset's records (its `dataset_info.json` entry): which column holds
 * what, and for ShareGPT which role names mean user, assistant, tool result, function call, system.
 * The defaults are LLaMA-Factory's own.
 */
export interface DatasetColumns {
  /** The dataset's name in `dataset_info.json` (undefined when no entry names the file). */
  name?: string;
  formatting: 'sharegpt' | 'alpaca';
  columns: {
    messages: string;
    images?: string;
    system?: string;
    prompt: string;
    query: string;
    response: string;
    history?: string;
  };
  tags: { role: string; content: string; user: string; assistant: string; observation: string; function: string; system: string };
}

/** LLaMA-Factory's defaults: ShareGPT `conversations` with `from`/`value` and human/gpt roles. */
export const SHAREGPT_DEFAULTS: DatasetColumns = {
  formatting: 'sharegpt',
  columns: { messages: 'conversations', prompt: 'instruction', query: 'input', response: 'output' },
  tags: { role: 'from', content: 'value', user: 'human', assistant: 'gpt', observation: 'observation', function: 'function_call', system: 'system' },
};

const entrySchema = z.looseObject({
  file_name: z.string().optional(),
  formatting: z.enum(['alpaca', 'sharegpt'], { error: 'alpaca | sharegpt' }).default('alpaca'),
  columns: z
    .looseObject({
      messages: z.string().optional(),
      images: z.string().optional(),
      system: z.string().optional(),
      prompt: z.string().optional(),
      query: z.string().optional(),
      response: z.string().optional(),
      history: z.string().optional(),
    })
    .optional(),
  tags: z
    .looseObject({
      role_tag: z.string().optional(),
      content_tag: z.string().optional(),
      user_tag: z.string().optional(),
      assistant_tag: z.string().optional(),
      observation_tag: z.string().optional(),
      function_tag: z.string().optional(),
      system_tag: z.string().optional(),
    })
    .optional(),
});

/**
 * The column mapping LLaMA-Factory would use for `file`: the entry of a `dataset_info.json` in the
 * same folder whose `file_name` is the file's name. Undefined when there is no such file or entry
 * (the reader then recognises each record's layout by its keys).
 */
export function readDatasetColumns(file: string): DatasetColumns | undefined {
  const infoPath = join(dirname(file), 'dataset_info.json');
  if (!existsSync(infoPath)) return undefined;
  let info: unknown;
  try {
    info = JSON.parse(readFileSync(infoPath, 'utf8'));
  } catch (error) {
    throw new GroundingFileError({ file: infoPath, field: '(file)', expected: "LLaMA-Factory's dataset_info.json (a JSON object of datasets)", received: (error as Error).message, cause: error });
  }
  if (typeof info !== 'object' || info === null || Array.isArray(info)) {
    throw new GroundingFileError({ file: infoPath, field: '(file)', expected: "LLaMA-Factory's dataset_info.json (a JSON object of datasets)", received: Array.isArray(info) ? 'an array' : typeof info });
  }
  const name = basename(file);
  const found = Object.entries(info as Record<string, unknown>).find(([, entry]) => typeof entry === 'object' && entry !== null && (entry as { file_name?: unknown }).file_name === name);
  if (found === undefined) return undefined;
  const [datasetName, raw] = found;
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = describeZodIssue(parsed.error.issues, raw, datasetName);
    throw new GroundingFileError({ file: infoPath, ...issue, field: `${datasetName}.${issue.field}` });
  }
  const { formatting, columns = {}, tags = {} } = parsed.data;
  const defaults = SHAREGPT_DEFAULTS;
  return {
    name: datasetName,
    formatting,
    columns: {
      messages: columns.messages ?? defaults.columns.messages,
      prompt: columns.prompt ?? defaults.columns.prompt,
      query: columns.query ?? defaults.columns.query,
      response: columns.response ?? defaults.columns.response,
      ...(columns.images === undefined ? {} : { images: columns.images }),
      ...(columns.system === undefined ? {} : { system: columns.system }),
      ...(columns.history === undefined ? {} : { history: columns.history }),
    },
    tags: {
      role: tags.role_tag ?? defaults.tags.role,
      content: tags.content_tag ?? defaults.tags.content,
      user: tags.user_tag ?? defaults.tags.user,
      assistant: tags.assistant_tag ?? defaults.tags.assistant,
      observation: tags.observation_tag ?? defaults.tags.observation,
      function: tags.function_tag ?? defaults.tags.function,
      system: tags.system_tag ?? defaults.tags.system,
    },
  };
}
