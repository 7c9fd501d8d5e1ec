import { applyHistoryWindow, untilAborted } from '@saccade/core';
import {
  InvalidArgumentError,
  type Agent,
  type AgentActOptions,
  type AgentFinishReason,
  type AgentOutput,
  type AgentResponse,
  type AgentUsage,
} from '@saccade/spec';
import { z } from 'zod';
import { createLimiter, type Limiter } from '../create-limiter';
import { AgentRequestError } from '../errors/agent-request-error';
import { AgentResponseError } from '../errors/agent-response-error';
import { CHAT_COMPLETION_SHAPE, chatCompletionSchema, type ChatCompletion, type ChatCompletionChoice } from './chat-completion-schema';
import { excerpt, postJsonWithRetry } from './post-with-retry';
import { ImageUrlEncoder, toChatMessages } from './to-chat-messages';

/**
 * Where createOpenAICompatibleAgent sends its requests (any OpenAI-compatible chat completions
 * server: vLLM, SGLang, OpenAI) and how it samples, sizes images and retries.
 */
export interface OpenAICompatibleAgentSettings {
  /** The server's OpenAI base URL, e.g. `http://localhost:8000/v1` for `vllm serve`. */
  baseURL: string;
  /** The model name the server knows, e.g. `Qwen/Qwen2.5-VL-3B-Instruct`. */
  model: string;
  /** The agent's id in trajectories (default `openai-compatible:<model>`). */
  id?: string;
  /** API key sent as `Authorization: Bearer …`; default: the variable named by `apiKeyEnv`. */
  apiKey?: string;
  /** Environment variable holding the key (default `OPENAI_API_KEY`); no header when unset (vLLM needs none). */
  apiKeyEnv?: string;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
  /** Images with more pixels are resized down to this many (aspect ratio kept) before sending (default: no limit). */
  maxImagePixels?: number;
  /** Keep the system messages and the last K user/assistant exchanges (default: all). */
  historyWindow?: number;
  /** Requests in flight at once: a number (a limiter of its own) or a `Limiter` shared with other agents (default 8). */
  concurrency?: number | Limiter;
  /** Time limit of one attempt in ms (default 120 000). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, connection errors and timeouts (default 3). */
  maxRetries?: number;
  /** First backoff delay in ms, doubling with jitter (default 500). */
  retryDelayMs?: number;
  /** Cap on one backoff delay in ms (default 8 000). */
  maxRetryDelayMs?: number;
  /** Sampling defaults; `act` options override them. */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  /** Ask for token log-probabilities (default false); `act({logprobs})` overrides. */
  logprobs?: boolean;
  /**
   * How `n > 1` samples are drawn: one request with `n` (default; vLLM, SGLang, OpenAI) or `n`
   * parallel requests with n = 1 (servers without `n`, such as llama.cpp's).
   */
  sampling?: 'n' | 'separate-requests';
  /**
   * Put a stop string back at the end of the text, as the spec asks (default true): the one the
   * server says matched (vLLM `stop_reason`, SGLang `matched_stop`), or, from servers that say
   * nothing (OpenAI's API, which drops the stop string), a closing-tag stop such as `</tool_call>`
   * whose tag the text left open.
   */
  restoreStop?: boolean;
  /** Extra fields merged into every request body (server-specific: `top_k`, `repetition_penalty`, `return_tokens_as_token_ids`, …). */
  extraBody?: Record<string, unknown>;
  /** Called before each retry wait. */
  onRetry?: (event: { attempt: number; delayMs: number; reason: string }) => void;
}

/** `act` options of this agent: the spec's, plus log-probabilities on request. */
export interface OpenAICompatibleActOptions extends AgentActOptions {
  logprobs?: boolean;
}

/**
 * An Agent backed by an OpenAI-compatible chat completions endpoint; `model` and `url` say which
 * server answered, for logs and trajectories.
 */
export interface OpenAICompatibleAgent extends Agent {
  readonly model: string;
  readonly url: string;
  act(options: OpenAICompatibleActOptions): Promise<AgentResponse>;
}

const settingsSchema = z.object({
  baseURL: z.url({ protocol: /^https?$/ }),
  model: z.string().min(1),
  maxImagePixels: z.number().int().positive().or(z.literal(Infinity)).optional(),
  historyWindow: z.number().int().nonnegative().or(z.literal(Infinity)).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  retryDelayMs: z.number().nonnegative().optional(),
  maxRetryDelayMs: z.number().nonnegative().optional(),
  temperature: z.number().min(0).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().optional(),
  stop: z.array(z.string().min(1)).optional(),
  sampling: z.enum(['n', 'separate-requests']).optional(),
});

function validateSettings(settings: OpenAICompatibleAgentSettings): void {
  const result = settingsSchema.safeParse(settings);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  throw new InvalidArgumentError({
    argument: path,
    expected: issue.message,
    value: (settings as unknown as Record<string, unknown>)[String(issue.path[0])],
  });
}

function finishReason(reason: string | null | undefined): AgentFinishReason | undefined {
  if (reason === null || reason === undefined) return undefined;
  if (reason === 'stop' || reason === 'length') return reason;
  return 'other';
}

const TOKEN_ID = /^token_id:(\d+)$/;
/** A stop string that is a closing tag, `</tool_call>`: its name. */
const CLOSING_TAG = /^<\/([A-Za-z_][\w.-]*)>$/;

/**
 * The stop string to put back at the end of `text`, if any. vLLM (`stop_reason`) and SGLang
 * (`matched_stop`) say which stop string matched, or null when none did (the end of the
 * sequence). OpenAI's API drops the stop string and says nothing: there a closing-tag stop whose
 * tag the text opened last and never closed (`<tool_call>{…}` with `</tool_call>` a stop) is the
 * one that matched, since the model stopped inside the block.
 */
function stopToRestore(text: string, choice: ChatCompletionChoice, stop: readonly string[] | undefined): string | undefined {
  if (choice.finish_reason !== 'stop' || stop === undefined || stop.length === 0) return undefined;
  const matched = choice.stop_reason ?? choice.matched_stop;
  if (typeof matched === 'string') return stop.includes(matched) && !text.endsWith(matched) ? matched : undefined;
  if (choice.stop_reason !== undefined || choice.matched_stop !== undefined) return undefined;
  let restore: { closing: string; opened: number } | undefined;
  for (const closing of stop) {
    const name = CLOSING_TAG.exec(closing)?.[1];
    if (name === undefined) continue;
    const opened = text.lastIndexOf(`<${name}>`);
    if (opened < 0 || text.includes(closing, opened)) continue;
    if (restore === undefined || opened > restore.opened) restore = { closing, opened };
  }
  return restore?.closing;
}

function toOutput(choice: ChatCompletionChoice, stop: readonly string[] | undefined, restoreStop: boolean): AgentOutput {
  let text = choice.message.content ?? '';
  const restored = restoreStop ? stopToRestore(text, choice, stop) : undefined;
  if (restored !== undefined) text += restored;
  const output: AgentOutput = { text };
  const reason = finishReason(choice.finish_reason);
  if (reason !== undefined) output.finishReason = reason;
  const tokens = choice.logprobs?.content;
  if (tokens !== null && tokens !== undefined && tokens.length > 0) {
    output.logprobs = tokens.map((token) => token.logprob ?? -Infinity);
    // vLLM's `return_tokens_as_token_ids` writes tokens as "token_id:123": then the ids are known.
    const ids = tokens.map((token) => TOKEN_ID.exec(token.token)?.[1]);
    if (ids.every((id) => id !== undefined)) output.tokens = ids.map(Number);
  }
  return output;
}

function toUsage(completions: readonly ChatCompletion[]): AgentUsage | undefined {
  let usage: AgentUsage | undefined;
  for (const { usage: given } of completions) {
    if (given === null || given === undefined) continue;
    usage ??= {};
    if (given.prompt_tokens !== undefined) usage.inputTokens = (usage.inputTokens ?? 0) + given.prompt_tokens;
    if (given.completion_tokens !== undefined) usage.outputTokens = (usage.outputTokens ?? 0) + given.completion_tokens;
  }
  return usage;
}

/** A 401/403 says what key was (or was not) sent and where the agent reads it from. */
function withKeyHint(error: unknown, sentKey: boolean, keyVariable: string | undefined): unknown {
  if (!AgentRequestError.isInstance(error) || (error.status !== 401 && error.status !== 403)) return error;
  const hint = sentKey
    ? `The server refused the API key${keyVariable === undefined ? ' given as apiKey' : ` read from $${keyVariable}`}.`
    : `No API key was sent: set apiKey, or the environment variable ${keyVariable ?? 'named by apiKeyEnv'} (apiKeyEnv).`;
  return new AgentRequestError({
    url: error.url,
    status: error.status,
    attempts: error.attempts,
    failure: error.failure,
    bodyExcerpt: error.bodyExcerpt,
    message: `${error.message} ${hint}`,
    cause: error.cause,
  });
}

/**
 * An agent backed by any OpenAI-compatible chat-completions server: vLLM, SGLang, llama.cpp's
 * server or OpenAI. Images go as `image_url` data URLs; retries with backoff on 429 / 5xx /
 * connection errors / timeouts; `signal` cancels; bodies are validated.
 *
 * @example
 * // vllm serve Qwen/Qwen2.5-VL-3B-Instruct
 * const agent = createOpenAICompatibleAgent({ baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen2.5-VL-3B-Instruct' });
 * const { outputs } = await agent.act({ messages, n: 4, temperature: 0.7 });
 */
export function createOpenAICompatibleAgent(settings: OpenAICompatibleAgentSettings): OpenAICompatibleAgent {
  validateSettings(settings);
  const {
    baseURL,
    model,
    apiKeyEnv = 'OPENAI_API_KEY',
    maxImagePixels = Infinity,
    historyWindow = Infinity,
    concurrency = 8,
    timeoutMs = 120_000,
    maxRetries = 3,
    retryDelayMs = 500,
    maxRetryDelayMs = 8_000,
    sampling = 'n',
    restoreStop = true,
  } = settings;
  const url = `${baseURL.replace(/\/+$/, '')}/chat/completions`;
  const apiKey = settings.apiKey ?? process.env[apiKeyEnv];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...(apiKey !== undefined && apiKey !== '' ? { authorization: `Bearer ${apiKey}` } : {}),
    ...settings.headers,
  };
  const limiter = typeof concurrency === 'number' ? createLimiter(concurrency) : concurrency;
  const encoder = new ImageUrlEncoder(maxImagePixels);

  const sendsKey = 'authorization' in headers || Object.keys(settings.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const request = async (body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ChatCompletion> => {
    let text: string;
    try {
      ({ text } = await postJsonWithRetry({
        url,
        headers,
        body: JSON.stringify(body),
        signal,
        maxRetries,
        timeoutMs,
        retryDelayMs,
        maxRetryDelayMs,
        onRetry: settings.onRetry,
      }));
    } catch (error) {
      throw withKeyHint(error, sendsKey, settings.apiKey === undefined ? apiKeyEnv : undefined);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new AgentResponseError({ url, expected: `JSON (${CHAT_COMPLETION_SHAPE})`, received: 'text that is not JSON', bodyExcerpt: excerpt(text), cause });
    }
    const parsed = chatCompletionSchema.safeParse(json);
    if (!parsed.success) {
      const received = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
        .join('; ');
      throw new AgentResponseError({ url, expected: CHAT_COMPLETION_SHAPE, received, bodyExcerpt: excerpt(text), cause: parsed.error });
    }
    return parsed.data;
  };
  // The limiter holds a slot for the whole call, retries and backoff included.
  const complete = (body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ChatCompletion> =>
    untilAborted(limiter(() => request(body, signal)), signal);

  return {
    specificationVersion: 'v1',
    id: settings.id ?? `openai-compatible:${model}`,
    model,
    url,
    async act(options: OpenAICompatibleActOptions): Promise<AgentResponse> {
      const n = options.n ?? 1;
      if (!(Number.isSafeInteger(n) && n >= 1)) throw new InvalidArgumentError({ argument: 'n', expected: 'an integer ≥ 1', value: n });
      if (!Array.isArray(options.messages) || options.messages.length === 0) {
        throw new InvalidArgumentError({ argument: 'messages', expected: 'a non-empty array of messages', value: options.messages });
      }
      options.signal?.throwIfAborted();
      const messages = await toChatMessages(applyHistoryWindow(options.messages, historyWindow), encoder);
      const stop = options.stop ?? settings.stop;
      const logprobs = options.logprobs ?? settings.logprobs ?? false;
      const body: Record<string, unknown> = { model, messages };
      const temperature = options.temperature ?? settings.temperature;
      const topP = options.topP ?? settings.topP;
      const maxTokens = options.maxTokens ?? settings.maxTokens;
      if (temperature !== undefined) body.temperature = temperature;
      if (topP !== undefined) body.top_p = topP;
      if (maxTokens !== undefined) body.max_tokens = maxTokens;
      if (stop !== undefined && stop.length > 0) body.stop = stop;
      if (logprobs) body.logprobs = true;
      Object.assign(body, settings.extraBody);

      let completions: ChatCompletion[];
      if (sampling === 'separate-requests' && n > 1) {
        completions = await Promise.all(Array.from({ length: n }, () => complete({ ...body, n: 1 }, options.signal)));
      } else {
        if (n > 1) body.n = n;
        completions = [await complete(body, options.signal)];
      }
      const choices = completions.flatMap((completion) => [...completion.choices].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)));
      if (choices.length !== n) {
        throw new AgentResponseError({
          url,
          expected: `${n} choice${n === 1 ? '' : 's'} (n = ${n}; for servers without \`n\` set sampling: 'separate-requests')`,
          received: `${choices.length}`,
          bodyExcerpt: excerpt(JSON.stringify(completions[0])),
        });
      }
      const response: AgentResponse = { outputs: choices.map((choice) => toOutput(choice, stop, restoreStop)) };
      const usage = toUsage(completions);
      if (usage !== undefined) response.usage = usage;
      return response;
    },
  };
}
