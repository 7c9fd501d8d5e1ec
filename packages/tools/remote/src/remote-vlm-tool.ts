import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { defineTool } from '@saccade/core';
import { decodeImage, toDataUrl } from '@saccade/image';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { postJson } from './post-json';

/** What remote-vlm asks the VLM for; each has a prompt template and an answer parser. */
export const REMOTE_VLM_TASKS = ['grounding', 'detection', 'chart_to_table', 'ask'] as const;
/** One of {@link REMOTE_VLM_TASKS}. */
export type RemoteVlmTask = (typeof REMOTE_VLM_TASKS)[number];

/** Settings of {@link createRemoteVlmTool}: the OpenAI-compatible server and model it asks. */
export interface RemoteVlmToolSettings {
  /** The name the model calls (default `remote-vlm`). */
  name?: string;
  /** The server's OpenAI base URL (default `SACCADE_REMOTE_VLM_URL`, else http://127.0.0.1:8000/v1, vLLM's and SGLang's default port). */
  url?: string;
  /** The model the server serves (default: the first of its `GET /models`). */
  model?: string;
  /** Per request (default 60,000 ms). */
  timeoutMs?: number;
  /** The environment variable that holds the API key, sent as a bearer token (default `OPENAI_API_KEY` when set). */
  apiKeyEnv?: string;
  /** Most tokens of an answer (default 512). */
  maxTokens?: number;
  /** Sampling temperature (default 0). */
  temperature?: number;
  /** Prompt templates by task; `{query}`, `{width}` and `{height}` are filled in. */
  prompts?: Partial<Record<RemoteVlmTask, string>>;
}

/**
 * The prompt templates: Qwen2.5-VL-style absolute pixel boxes as JSON `bbox_2d`, which Qwen2.5-VL,
 * InternVL and most open VLMs served by vLLM or SGLang follow; answers in other forms are parsed too.
 */
export const REMOTE_VLM_PROMPTS: Record<RemoteVlmTask, string> = {
  grounding: 'Locate "{query}" in the image ({width}×{height} pixels). Answer with JSON only: {"bbox_2d": [x1, y1, x2, y2], "label": "{query}"} in pixels.',
  detection: 'Detect every {query} in the image ({width}×{height} pixels). Answer with a JSON list only: [{"bbox_2d": [x1, y1, x2, y2], "label": "<name>"}, …] in pixels; [] if there is none.',
  chart_to_table: 'Convert the chart in the image into its underlying data table. Answer with the table only, as CSV with a header row.{query}',
  ask: '{query}',
};

const settingsSchema = z
  .object({
    name: z.string().min(1).optional(),
    url: z.string().url().optional(),
    model: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the name of an environment variable').optional(),
    maxTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    prompts: z.partialRecord(z.enum(REMOTE_VLM_TASKS), z.string()).optional(),
  })
  .strict();

const input = z.object({
  task: z.enum(REMOTE_VLM_TASKS).describe('grounding: the box of one thing; detection: boxes of every instance; chart_to_table: the data of a chart; ask: a free question'),
  query: z.string().max(500).optional().describe('What to locate or detect, or the question for ask'),
});

/** A box read from a VLM's answer by {@link parseVlmBoxes}: [x1, y1, x2, y2] in pixels of the image, and its label if the answer gave one. */
export interface VlmBox {
  bbox: [number, number, number, number];
  label?: string;
}

/** The JSON values in a text: fenced ```json blocks first, else every balanced {…} or […] that parses. */
function jsonValues(text: string): unknown[] {
  const found: unknown[] = [];
  const fenced = [...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)].map((match) => match[1]!);
  for (const source of fenced.length > 0 ? fenced : [text]) {
    for (let start = 0; start < source.length; start++) {
      const open = source[start];
      if (open !== '{' && open !== '[') continue;
      let depth = 0;
      let inString = false;
      for (let end = start; end < source.length; end++) {
        const char = source[end];
        if (inString) {
          if (char === '\\') end++;
          else if (char === '"') inString = false;
          continue;
        }
        if (char === '"') inString = true;
        else if (char === '{' || char === '[') depth++;
        else if (char === '}' || char === ']') depth--;
        if (depth === 0) {
          try {
            found.push(JSON.parse(source.slice(start, end + 1)));
            start = end;
          } catch {
            // Not JSON from here: try the next opening bracket.
          }
          break;
        }
      }
    }
  }
  return found;
}

const isBox = (value: unknown): value is [number, number, number, number] => Array.isArray(value) && value.length === 4 && value.every((item) => typeof item === 'number' && Number.isFinite(item));

/**
 * Boxes in a VLM's answer, in pixels of a width × height image: JSON objects with `bbox_2d` / `bbox` /
 * `box` (and `label`), bare [x1, y1, x2, y2] lists, or Qwen2-VL's `<|box_start|>(x1,y1),(x2,y2)<|box_end|>`
 * on its 0–1000 grid. Boxes whose numbers all lie in 0–1 are taken as fractions of the image.
 */
export function parseVlmBoxes(answer: string, width: number, height: number): VlmBox[] {
  const boxes: VlmBox[] = [];
  const add = (bbox: [number, number, number, number], label?: unknown) => {
    const scaled = bbox.every((value) => value >= 0 && value <= 1) && bbox.some((value) => value > 0 && value < 1) ? ([bbox[0] * width, bbox[1] * height, bbox[2] * width, bbox[3] * height] as const) : bbox;
    const [x1, y1, x2, y2] = scaled.map((value) => Math.round(value * 10) / 10) as [number, number, number, number];
    boxes.push({ bbox: [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)], ...(typeof label === 'string' && label !== '' ? { label } : {}) });
  };
  for (const match of answer.matchAll(/(?:<\|object_ref_start\|>([^<]*)<\|object_ref_end\|>)?\s*<\|box_start\|>\s*\(\s*([\d.]+)\s*,\s*([\d.]+)\s*\)\s*,\s*\(\s*([\d.]+)\s*,\s*([\d.]+)\s*\)\s*<\|box_end\|>/g)) {
    const [x1, y1, x2, y2] = [match[2], match[3], match[4], match[5]].map(Number) as [number, number, number, number];
    add([(x1 / 1000) * width, (y1 / 1000) * height, (x2 / 1000) * width, (y2 / 1000) * height], match[1]?.trim());
  }
  if (boxes.length > 0) return boxes;
  const visit = (value: unknown): void => {
    if (isBox(value)) return add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      const box = record['bbox_2d'] ?? record['bbox'] ?? record['box'];
      if (isBox(box)) return add(box, record['label'] ?? record['name']);
      Object.values(record).forEach(visit);
    }
  };
  jsonValues(answer).forEach(visit);
  return boxes;
}

/** A data table in an answer: CSV or a Markdown table; the first row is the header. */
export function parseVlmTable(answer: string): { columns: string[]; rows: string[][] } {
  const body = /```(?:csv|markdown|md)?\s*([\s\S]*?)```/.exec(answer)?.[1] ?? answer;
  const lines = body.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !/^\|?\s*:?-{2,}/.test(line));
  const markdown = lines.filter((line) => line.startsWith('|'));
  const cells = (line: string): string[] => {
    if (line.startsWith('|')) return line.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
    const out: string[] = [];
    for (const match of line.matchAll(/\s*("((?:[^"]|"")*)"|[^,]*)\s*(?:,|$)/g)) {
      if (match.index >= line.length && out.length > 0) break;
      out.push(match[2] !== undefined ? match[2].replace(/""/g, '"') : match[1]!.trim());
    }
    return out;
  };
  const table = (markdown.length >= 2 ? markdown : lines.filter((line) => line.includes(','))).map(cells);
  if (table.length === 0) throw new Error(`expected a table (CSV or Markdown) in the answer, received ${JSON.stringify(answer.slice(0, 120))}`);
  return { columns: table[0]!, rows: table.slice(1) };
}

/** GET a JSON document with node:http (no pool), for `/models`. */
function getJson(url: URL, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', agent: false, headers, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) return reject(new Error(`GET ${url.href} answered ${response.statusCode}: ${text.slice(0, 200)}`));
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(`expected JSON from GET ${url.href}, received ${JSON.stringify(text.slice(0, 120))}`));
        }
      });
    });
    const timer = setTimeout(() => request.destroy(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end();
  });
}

/**
 * `remote-vlm`: asks a VLM behind any OpenAI-compatible chat-completions server (vLLM, SGLang, `saccade
 * serve model`) to ground, detect or read a chart in the episode's original image, with a prompt
 * template per task, and parses the answer: `{"task", "boxes": [{"bbox", "label"?}]}` for grounding
 * and detection, `{"task", "columns", "rows"}` for chart_to_table, `{"task", "answer"}` for ask; the
 * model's raw answer comes along as `raw`.
 */
export function createRemoteVlmTool(settings: RemoteVlmToolSettings = {}): Tool<z.infer<typeof input>> {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`expected remote-vlm settings {url?, model?, timeoutMs?, apiKeyEnv?, maxTokens?, temperature?, prompts?}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`).join('; ')}`);
  const { name = 'remote-vlm', timeoutMs = 60_000, maxTokens = 512, temperature = 0 } = parsed.data;
  const prompts = { ...REMOTE_VLM_PROMPTS, ...parsed.data.prompts };
  let model: Promise<string> | undefined;
  const base = () => new URL((parsed.data.url ?? (process.env['SACCADE_REMOTE_VLM_URL'] || 'http://127.0.0.1:8000/v1')).replace(/\/*$/, '/'));
  const headers = (): Record<string, string> => {
    const variable = parsed.data.apiKeyEnv ?? 'OPENAI_API_KEY';
    const key = process.env[variable];
    if (parsed.data.apiKeyEnv !== undefined && !key) throw new Error(`expected the API key in the environment variable ${variable} (apiKeyEnv), it is not set`);
    return key ? { authorization: `Bearer ${key}` } : {};
  };
  return defineTool({
    name,
    description: 'Ask a vision-language model about the original image: task grounding (the box of "query"), detection (boxes of every "query"), chart_to_table (the chart\'s data) or ask (answer "query"). Boxes are [x1, y1, x2, y2] in pixels.',
    inputSchema: input,
    async execute({ task, query = '' }, { images, signal }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to ask about, but the episode has none');
      if ((task === 'grounding' || task === 'detection' || task === 'ask') && query.trim() === '') throw new Error(`expected a query for ${task} (what to find, or the question)`);
      const { width, height } = image.width !== undefined && image.height !== undefined ? { width: image.width, height: image.height } : await decodeImage(image, { channels: 3 });
      const url = base();
      const auth = headers();
      model ??= parsed.data.model !== undefined
        ? Promise.resolve(parsed.data.model)
        : getJson(new URL('models', url), auth, timeoutMs, signal).then((list) => {
            const id = (list as { data?: { id?: unknown }[] }).data?.[0]?.id;
            if (typeof id !== 'string') throw new Error(`expected GET ${new URL('models', url).href} to list a model ({"data": [{"id": …}]}), received ${JSON.stringify(list).slice(0, 120)}`);
            return id;
          });
      const modelName = await model.catch((error: unknown) => {
        model = undefined;
        throw new Error(`could not ask ${url.origin} which model it serves (set model): ${(error as Error).message}`, { cause: error });
      });
      const prompt = prompts[task].replaceAll('{query}', task === 'chart_to_table' && query !== '' ? ` ${query}` : query).replaceAll('{width}', String(width)).replaceAll('{height}', String(height));
      const body = JSON.stringify({
        model: modelName,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: toDataUrl(image) } }, { type: 'text', text: prompt }] }],
        max_tokens: maxTokens,
        temperature,
      });
      const endpoint = new URL('chat/completions', url);
      let response: { status: number; body: string };
      try {
        response = await postJson(endpoint, body, { headers: auth, timeoutMs, ...(signal === undefined ? {} : { signal }) });
      } catch (error) {
        signal?.throwIfAborted();
        throw new Error(`could not reach ${endpoint.href}: ${(error as Error).message}`, { cause: error });
      }
      if (response.status !== 200) throw new Error(`${endpoint.href} answered ${response.status}: ${response.body.slice(0, 300)}`);
      let answer: unknown;
      try {
        answer = (JSON.parse(response.body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
      } catch {
        answer = undefined;
      }
      if (typeof answer !== 'string') throw new Error(`expected a chat completion {"choices": [{"message": {"content": "…"}}]} from ${endpoint.href}, received ${JSON.stringify(response.body.slice(0, 160))}`);
      let result: Record<string, unknown>;
      if (task === 'grounding' || task === 'detection') {
        const boxes = parseVlmBoxes(answer, width, height);
        result = { task, boxes: task === 'grounding' ? boxes.slice(0, 1) : boxes, count: task === 'grounding' ? Math.min(1, boxes.length) : boxes.length };
      } else if (task === 'chart_to_table') {
        try {
          result = { task, ...parseVlmTable(answer) };
        } catch (error) {
          result = { task, columns: [], rows: [], error: (error as Error).message };
        }
      } else result = { task, answer: answer.trim() };
      return { text: JSON.stringify({ ...result, raw: answer }) };
    },
  });
}

/** remote-vlm at SACCADE_REMOTE_VLM_URL (else http://127.0.0.1:8000/v1), its model from `GET /models`. */
export const remoteVlmTool = createRemoteVlmTool();
