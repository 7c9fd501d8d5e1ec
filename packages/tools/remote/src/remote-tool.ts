import { abortableDelay, defineTool } from '@saccade/core';
import { fromDataUrl, toDataUrl } from '@saccade/image';
import type { ImageData, StandardSchemaV1, Tool } from '@saccade/spec';
import { z } from 'zod';
import { postJson } from './post-json';

/** Settings of {@link createRemoteTool}: the tool's name and description for the model, the server's endpoint, and the arguments' schema. */
export interface RemoteToolSettings<INPUT> {
  /** The name the model calls, e.g. `grounding_dino`. */
  name: string;
  description: string;
  /** The model server's endpoint, e.g. `http://gpu-box:8000/detect`. */
  url: string | URL;
  /** The arguments the model sends (default: any JSON object). */
  inputSchema?: StandardSchemaV1<unknown, INPUT>;
  /** Per attempt (default 30,000 ms). */
  timeoutMs?: number;
  /** Attempts after the first on network errors, 429 and 5xx (default 2). */
  retries?: number;
  /** First back-off; doubles per retry (default 250 ms). */
  retryDelayMs?: number;
  /** Extra headers, e.g. `{authorization: 'Bearer …'}`. */
  headers?: Record<string, string>;
  /** Send the episode's images (default true; false for text-only servers). */
  sendImages?: boolean;
}

/** The body the tool POSTs. */
export interface RemoteToolRequest {
  tool: string;
  arguments: Record<string, unknown>;
  /** The episode's images as data URLs, the original first. */
  images: string[];
}

/** What the server answers (status 200): text and/or images, or an error for the model to read. */
export const remoteToolResponseSchema = z.object({
  text: z.string().optional(),
  images: z.array(z.string().startsWith('data:image/')).optional(),
  error: z.string().optional(),
});

/** A parsed server answer ({@link remoteToolResponseSchema}). */
export type RemoteToolResponse = z.infer<typeof remoteToolResponseSchema>;

const RETRIABLE = (status: number) => status === 429 || status >= 500;

/**
 * A tool served by a model server over HTTP (Grounding DINO, SAM2, ChartMoE-like servers). Each
 * call POSTs `{tool, arguments, images}` (images as data URLs) and reads `{text?, images?, error?}`;
 * network errors, 429 and 5xx are retried with exponential back-off; 4xx and `error` come back to
 * the model as the tool's failure.
 */
export function createRemoteTool<INPUT extends Record<string, unknown> = Record<string, unknown>>(settings: RemoteToolSettings<INPUT>): Tool<INPUT> {
  const { name, description, timeoutMs = 30_000, retries = 2, retryDelayMs = 250, headers, sendImages = true } = settings;
  const url = new URL(settings.url);
  const inputSchema = settings.inputSchema ?? (z.record(z.string(), z.unknown()) as unknown as StandardSchemaV1<unknown, INPUT>);
  return defineTool({
    name,
    description,
    inputSchema,
    async execute(input, { images, signal }) {
      const body: RemoteToolRequest = { tool: name, arguments: input, images: sendImages ? images.map((image) => toDataUrl(image)) : [] };
      const json = JSON.stringify(body);
      let failure = '';
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0) await abortableDelay(retryDelayMs * 2 ** (attempt - 1), signal);
        let status: number;
        let text: string;
        try {
          ({ status, body: text } = await postJson(url, json, { headers, timeoutMs, signal }));
        } catch (error) {
          signal?.throwIfAborted();
          failure = `could not reach ${url.origin}: ${(error as Error).message}`;
          continue;
        }
        if (RETRIABLE(status)) {
          failure = `the server at ${url.origin} answered ${status}`;
          continue;
        }
        if (status !== 200) throw new Error(`the server answered ${status}: ${text.slice(0, 300)}`);
        let parsed: RemoteToolResponse;
        try {
          parsed = remoteToolResponseSchema.parse(JSON.parse(text));
        } catch {
          throw new Error(`expected a JSON body {text?, images?, error?} from the server, received ${JSON.stringify(text.slice(0, 120))}`);
        }
        if (parsed.error !== undefined) throw new Error(parsed.error);
        const decoded: ImageData[] = (parsed.images ?? []).map((url) => fromDataUrl(url) as ImageData);
        return { ...(parsed.text === undefined ? {} : { text: parsed.text }), ...(decoded.length === 0 ? {} : { images: decoded }) };
      }
      throw new Error(`${failure} (after ${retries + 1} attempts)`);
    },
  });
}
