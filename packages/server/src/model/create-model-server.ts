import { randomUUID } from 'node:crypto';
import { applyChatTemplate, decodeImageData, imageTokenCount, loadCheckpoint, VisionLanguageModel, type ModelPresetName } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { InvalidStateError, type Message } from '@saccade/spec';
import { createHttpService, type SaccadeServer, type ServiceOptions } from '../http/create-http-service';
import { parseBody } from '../http/parse-body';
import { ServerRequestError } from '../http/server-request-error';
import { withDeadline } from '../http/with-deadline';
import { GenerationThread } from './generation-thread';
import { CHAT_REQUEST_SHAPE, chatCompletionRequestSchema, toSpecMessages } from './chat-completion-request';

/**
 * The built-in model createModelServer serves (in memory, from a checkpoint or a fresh preset), the
 * name clients ask for, and its sampling defaults, besides the options every service takes.
 */
export interface ModelServerOptions extends ServiceOptions {
  /** A model in memory (the caller keeps ownership: close() does not dispose it). */
  model?: VisionLanguageModel;
  /** A checkpoint folder (`saveCheckpoint`, a run's `checkpoints/<step>/`) loaded at `listen`. */
  checkpoint?: string;
  /** Without `model` or `checkpoint`: a fresh, untrained model of this preset (default 'small'). */
  preset?: ModelPresetName;
  /** The name clients send as `model` and `/v1/models` lists (default `saccade-small-vlm`). */
  modelName?: string;
  /** `max_tokens` when a request gives none (default 256; capped by the context length). */
  maxTokens?: number;
  /** Seed of the first request without a `seed`; each such request takes the next (default 0). */
  seed?: number;
  /** Requests waiting for the model at most; more are answered 503 (default 64). */
  maxQueue?: number;
  /**
   * Turns a request's chat into what the model reads, e.g. a trained run's prompt view and history
   * window (`applyPromptView`, `applyHistoryWindow` from @saccade/agents), so that a client sending
   * the env's full prompt gets the answers the policy gives in training. Default: unchanged.
   */
  prepareMessages?: (messages: Message[]) => Message[];
  /**
   * What the model card (`/v1/models`) reports under `saccade`, e.g. the env settings a trained
   * checkpoint was trained on, so that a client can play the env as the policy learned it.
   */
  metadata?: Record<string, unknown>;
}

interface Choice {
  index: number;
  message: { role: 'assistant'; content: string };
  logprobs: { content: { token: string; logprob: number; bytes: number[]; top_logprobs: [] }[] } | null;
  finish_reason: 'stop' | 'length';
  stop_reason: string | null;
}

/** Cuts the text at the first stop string, as OpenAI does (the model keeps it; OpenAI's API drops it). */
function cutAtStop(text: string, stop: readonly string[]): { text: string; stop: string | null } {
  let best: { at: number; stop: string } | undefined;
  for (const candidate of stop) {
    const at = text.indexOf(candidate);
    if (at !== -1 && (best === undefined || at < best.at)) best = { at, stop: candidate };
  }
  return best === undefined ? { text, stop: null } : { text: text.slice(0, best.at), stop: best.stop };
}

/**
 * An OpenAI-compatible server over the built-in model: `POST /v1/chat/completions` (text and
 * data-URL images, `n`, `temperature`, `top_p`, `max_tokens`, `stop`, `seed`, `logprobs`) and
 * `GET /v1/models`, so `createOpenAICompatibleAgent`, verl-tool, VAGEN or any OpenAI client can
 * talk to it. Generation runs on a worker thread, one request at a time, queued: the event loop
 * stays free, so `/health` answers during generation and requests past `maxQueue` get 503 at once.
 * An image that does not decode (or declares more pixels than the decoder takes) is a 400.
 * Streaming is not offered (400).
 */
export function createModelServer(options: ModelServerOptions = {}): SaccadeServer {
  const modelName = options.modelName ?? 'saccade-small-vlm';
  const requestTimeoutMs = options.requestTimeoutMs ?? 300_000;
  const maxQueue = options.maxQueue ?? 64;
  const created = Math.floor(Date.now() / 1000);
  let model: VisionLanguageModel | undefined = options.model;
  let owned = false;
  let nextSeed = options.seed ?? 0;
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let thread: GenerationThread | undefined;

  const server = createHttpService({
    ...options,
    name: 'model server',
    defaultBodyLimit: 32 * 1024 * 1024,
    requestTimeoutMs,
    errorBody: (status, message, code) => ({
      error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: code ?? null },
    }),
    health: () => ({ model: modelName, loaded: model !== undefined, queued: waiting }),
    prepare: async () => {
      await initTensor();
      if (model === undefined) {
        model = options.checkpoint !== undefined ? (await loadCheckpoint(options.checkpoint)).model : VisionLanguageModel.create({ preset: options.preset ?? 'small' });
        owned = true;
      }
      thread ??= await GenerationThread.start(model);
    },
    shutdown: async () => {
      await queue.catch(() => undefined);
      await thread?.close();
      thread = undefined;
      if (owned) model?.dispose();
      model = undefined;
    },
  });
  const { app } = server;

  const modelCard = () => ({ id: modelName, object: 'model', created, owned_by: 'saccade', max_model_len: model?.config.maxSequenceLength ?? null, ...(options.metadata === undefined ? {} : { saccade: options.metadata }) });
  app.get('/v1/models', async () => ({ object: 'list', data: [modelCard()] }));
  app.get('/v1/models/:name', async (request) => {
    const { name } = request.params as { name: string };
    if (name !== modelName) throw new ServerRequestError({ statusCode: 404, code: 'model_not_found', message: `The model "${name}" does not exist; this server serves "${modelName}".` });
    return modelCard();
  });

  app.post('/v1/chat/completions', async (request) => {
    const body = parseBody(chatCompletionRequestSchema, request.body, CHAT_REQUEST_SHAPE);
    if (body.model !== modelName) {
      throw new ServerRequestError({ statusCode: 404, code: 'model_not_found', message: `The model "${body.model.slice(0, 100)}" does not exist; this server serves "${modelName}".` });
    }
    if (body.stream === true) throw new ServerRequestError({ statusCode: 400, code: 'unsupported_parameter', message: 'stream: true is not supported by this server; expected stream to be false or absent.' });
    const current = model;
    const generator = thread;
    if (current === undefined || generator === undefined) throw new InvalidStateError({ operation: 'chat completion', expected: 'a loaded model', actual: 'the server is starting or closing' });
    const messages = options.prepareMessages ? options.prepareMessages(toSpecMessages(body.messages)) : toSpecMessages(body.messages);
    const { tokenizer, config } = current;
    const sequence = applyChatTemplate(tokenizer, messages, { imageTokens: imageTokenCount(config), addGenerationPrompt: true });
    if (sequence.tokens.length >= config.maxSequenceLength) {
      throw new ServerRequestError({
        statusCode: 400,
        code: 'context_length_exceeded',
        message: `This model's maximum context length is ${config.maxSequenceLength} tokens; the messages take ${sequence.tokens.length} tokens, leaving none to generate. Shorten the messages.`,
      });
    }
    if (waiting >= maxQueue) throw new ServerRequestError({ statusCode: 503, message: `The model server is busy: ${waiting} requests are queued (limit ${maxQueue}); retry later.` });
    // A client's image that does not decode (corrupt, or a header declaring more pixels than the
    // decoder takes, a decompression bomb) is the request's fault: 400, never a 500.
    const images = await Promise.all(
      sequence.images.map(async (image, index) => {
        try {
          return await decodeImageData(image, config.imageSize);
        } catch (error) {
          throw new ServerRequestError({ statusCode: 400, code: 'invalid_image', message: `Image ${index + 1} of the messages could not be decoded: ${(error instanceof Error ? error.message : String(error)).replace(/\.+$/, '')}.` });
        }
      }),
    );
    const stop = body.stop === undefined || body.stop === null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
    const n = body.n ?? 1;
    const seed = body.seed ?? nextSeed++;
    if (waiting >= maxQueue) throw new ServerRequestError({ statusCode: 503, message: `The model server is busy: ${waiting} requests are queued (limit ${maxQueue}); retry later.` });
    waiting += 1;
    const samples = await withDeadline(requestTimeoutMs, 'The chat completion', (signal) => {
      // One generation at a time, on the generation thread; the queue keeps order.
      const run = queue.then(() => {
        signal.throwIfAborted();
        return generator.generate({
          prompts: [{ tokens: sequence.tokens, images }],
          n,
          temperature: body.temperature ?? 1,
          topP: body.top_p ?? 1,
          maxTokens: body.max_completion_tokens ?? body.max_tokens ?? options.maxTokens ?? 256,
          seed,
          signal,
          ...(stop.length > 0 ? { stop } : {}),
        });
      });
      queue = run.catch(() => undefined);
      return run.finally(() => (waiting -= 1));
    });
    const choices: Choice[] = (samples[0] ?? []).map((sample, index) => {
      const cut = cutAtStop(sample.text, stop);
      return {
        index,
        message: { role: 'assistant', content: cut.text },
        logprobs:
          body.logprobs === true
            ? {
                content: sample.tokens.map((token, at) => {
                  const text = tokenizer.decode([token]);
                  return { token: text, logprob: sample.logProbs[at] ?? 0, bytes: [...Buffer.from(text, 'utf8')], top_logprobs: [] as [] };
                }),
              }
            : null,
        finish_reason: cut.stop !== null ? 'stop' : sample.finishReason,
        stop_reason: cut.stop,
      };
    });
    const completionTokens = (samples[0] ?? []).reduce((sum, sample) => sum + sample.tokens.length, 0);
    request.log.info({ promptTokens: sequence.tokens.length, completionTokens, n }, 'chat completion');
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelName,
      choices,
      usage: { prompt_tokens: sequence.tokens.length, completion_tokens: completionTokens, total_tokens: sequence.tokens.length + completionTokens },
    };
  });

  return server;
}
