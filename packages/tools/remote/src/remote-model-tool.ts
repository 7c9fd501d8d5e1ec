import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { createRemoteTool } from './remote-tool';

/** Settings of {@link createRemoteModelTool}. */
export interface RemoteModelToolSettings {
  /** The name the model calls (default `remote-model`). */
  name?: string;
  /** What the tool does, for the model's prompt. */
  description?: string;
  /** The endpoint (default `SACCADE_REMOTE_MODEL_URL`). */
  url?: string;
  /** Per attempt (default 30,000 ms). */
  timeoutMs?: number;
  /** Attempts after the first on network errors, 429 and 5xx (default 2). */
  retries?: number;
  /** The environment variable that holds the API key, sent as a bearer token. */
  apiKeyEnv?: string;
  /** Send the episode's images (default true). */
  sendImages?: boolean;
}

const settingsSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().min(1).optional(),
    url: z.string().url().optional(),
    timeoutMs: z.number().int().positive().optional(),
    retries: z.number().int().min(0).max(10).optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the name of an environment variable').optional(),
    sendImages: z.boolean().optional(),
  })
  .strict();

const input = z.record(z.string(), z.unknown());

/**
 * `remote-model`: createRemoteTool's plain JSON protocol (POST `{tool, arguments, images}`, answer
 * `{text?, images?, error?}`) to a URL given in settings (`--tool-options '{"remote-model": {"url": …}}'`)
 * or `SACCADE_REMOTE_MODEL_URL`, read at the first call; the key comes from the environment variable
 * `apiKeyEnv` names.
 */
export function createRemoteModelTool(settings: RemoteModelToolSettings = {}): Tool<Record<string, unknown>> {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`expected remote-model settings {url, description?, timeoutMs?, retries?, apiKeyEnv?, sendImages?}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`).join('; ')}`);
  const { name = 'remote-model', description = 'Call a model served over HTTP with JSON arguments; it sees the episode\'s images.', url, apiKeyEnv, ...rest } = parsed.data;
  let remote: Tool<Record<string, unknown>> | undefined;
  const made = (): Tool<Record<string, unknown>> => {
    if (remote !== undefined) return remote;
    const endpoint = url ?? (process.env['SACCADE_REMOTE_MODEL_URL'] || undefined);
    if (endpoint === undefined) throw new Error('expected the URL of the model endpoint for remote-model: give it as --tool-options \'{"remote-model": {"url": "http://host:port/path"}}\' or SACCADE_REMOTE_MODEL_URL');
    const key = apiKeyEnv === undefined ? undefined : process.env[apiKeyEnv];
    if (apiKeyEnv !== undefined && !key) throw new Error(`expected the API key in the environment variable ${apiKeyEnv} (apiKeyEnv), it is not set`);
    remote = createRemoteTool({ name, description, url: endpoint, ...rest, ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}) });
    return remote;
  };
  return defineTool({
    name,
    description,
    inputSchema: input,
    execute: (args, context) => made().execute(args, context),
  });
}

/** remote-model at SACCADE_REMOTE_MODEL_URL. */
export const remoteModelTool = createRemoteModelTool();
