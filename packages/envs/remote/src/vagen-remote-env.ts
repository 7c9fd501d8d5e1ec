import { countImagePlaceholders, decodeMultipartBody, describeInvalidActionSpace, encodeMultipartBody, registerEnv, type MultipartBody } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError, type ActionSpace, type Env, type EnvInfo, type EnvResetOptions, type Observation, type ResetResult, type StepResult } from '@saccade/spec';
import { z } from 'zod';
import { RemoteEnvError } from './remote-env-error';

/** The registry id of the env this package registers. */
export const REMOTE_ENV_ID = 'saccade/Remote-v1';

/** The options of `saccade/Remote-v1`. */
export interface VagenRemoteEnvOptions {
  /** Servers of VAGEN's remote env protocol: a list, or one string of URLs separated by `;` or new lines. */
  baseUrls: string | readonly string[];
  /** The remote env's own config, sent as `env_config` (e.g. `{env_name: 'frozenlake', render_mode: 'vision'}`). */
  envConfig?: Record<string, unknown>;
  /** Seconds one HTTP call may take (default 120, as VAGEN's client). */
  timeout?: number;
  /** Retries of a call that failed before the server took it (default 3). */
  retries?: number;
  /** Seconds before the first retry; each next one waits twice as long, ±30 % (default 0.5, at most 30 s a wait). */
  backoff?: number;
  /** Failed connects on one server before the next URL of the pool is tried (default 1). */
  failoverAfterFailures?: number;
  /** The server's API key, sent as `x-api-key`. */
  token?: string;
  /**
   * What the remote env accepts, when the caller knows (VAGEN's protocol does not say): lets the
   * random agent and `checkEnv` play it, e.g. `{kind: 'discrete', actions: ['Left', 'Right'], maxActionsPerTurn: 1, separator: ',', format: 'free_think'}`.
   */
  actionSpace?: ActionSpace;
}

const options = z.strictObject({
  baseUrls: z.union([z.string(), z.array(z.string())]),
  envConfig: z.record(z.string(), z.unknown()).optional(),
  timeout: z.number().positive().max(86_400).optional(),
  retries: z.number().int().min(0).max(100).optional(),
  backoff: z.number().min(0).max(600).optional(),
  failoverAfterFailures: z.number().int().min(1).max(100).optional(),
  token: z.string().min(1).optional(),
  actionSpace: z.unknown().optional(),
});

/** `a;b` or `a\nb` or a list → trimmed URLs without a trailing slash; `#` lines are comments (as VAGEN's url files). */
function parseUrls(raw: string | readonly string[]): string[] {
  const parts = typeof raw === 'string' ? raw.replaceAll(';', '\n').split('\n') : [...raw];
  const urls = parts.map((part) => part.trim()).filter((part) => part.length > 0 && !part.startsWith('#'));
  for (const url of urls) {
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw new InvalidArgumentError({ argument: 'baseUrls', expected: 'http:// or https:// URLs of remote env servers', value: url });
  }
  if (urls.length === 0) throw new InvalidArgumentError({ argument: 'baseUrls', expected: 'at least one URL of a remote env server', value: raw });
  return urls.map((url) => url.replace(/\/+$/, ''));
}

/** Why one attempt of a call failed, and whether the server can have acted on it. */
interface Failure {
  message: string;
  statusCode?: number;
  /** The server surely did not act on the call (connection refused, 503 at capacity). */
  untouched: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Connects without a preferred server spread over the pool: each env of the process starts one further along.
let nextStart = 0;

/**
 * An env played on a server of VAGEN's remote env protocol (`vagen/envs_remote/` of VAGEN's main;
 * VAGEN's own `GymService`, or `saccade serve env`). The first `reset` opens a session on one
 * server of the pool (`POST /connect` with the seed: connect and reset in one round trip), later
 * ones reset it (`POST /call`); every call of the session goes to that server. Images travel as
 * multipart parts in the order of the `<image>` placeholders; VAGEN's `turn_metrics` and
 * `traj_metrics` become `metrics`, and the top-level `info.success` and `info.format_correct` (its
 * envs' parse result) become `metrics.success` and `metrics.format_correct`.
 *
 * Failures: a connect that fails moves along the URL pool (`failoverAfterFailures`), with retries
 * and exponential backoff. A step is retried only when the server cannot have taken it (connection
 * refused, 503), so an action is never applied twice; otherwise, and when the session is gone
 * (404: the server restarted or expired it), the step throws a `RemoteEnvError` saying the episode
 * is lost, and the next `reset` opens a new session.
 */
export class VagenRemoteEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = REMOTE_ENV_ID;
  readonly urls: readonly string[];
  readonly #envConfig: Record<string, unknown>;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #failoverAfter: number;
  readonly #token: string | undefined;
  #session: { id: string; url: number } | undefined;
  #systemPrompt: string | undefined;
  #done = false;

  constructor(settings: VagenRemoteEnvOptions) {
    const parsed = options.safeParse(settings);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InvalidArgumentError({
        argument: issue.path.join('.') || 'options',
        expected: '{baseUrls, envConfig?, timeout? (s), retries?, backoff? (s), failoverAfterFailures?, token?}',
        value: issue.path.length > 0 ? (settings as unknown as Record<string, unknown>)?.[String(issue.path[0])] : settings,
        message: `Invalid options of ${REMOTE_ENV_ID}: ${issue.path.join('.') || 'options'}: ${issue.message}.`,
      });
    }
    this.urls = parseUrls(parsed.data.baseUrls);
    this.#envConfig = parsed.data.envConfig ?? {};
    this.#timeoutMs = (parsed.data.timeout ?? 120) * 1000;
    this.#retries = parsed.data.retries ?? 3;
    this.#backoffMs = (parsed.data.backoff ?? 0.5) * 1000;
    this.#failoverAfter = parsed.data.failoverAfterFailures ?? 1;
    this.#token = parsed.data.token;
    if (parsed.data.actionSpace !== undefined) {
      const problem = describeInvalidActionSpace(parsed.data.actionSpace);
      if (problem !== undefined) throw new InvalidArgumentError({ argument: 'actionSpace', expected: 'an action space (discrete, text or tool-calls)', value: parsed.data.actionSpace, message: `Invalid options of ${REMOTE_ENV_ID}: actionSpace: ${problem}.` });
      const space = parsed.data.actionSpace as ActionSpace;
      this.actionSpace = () => space;
    }
  }

  /** The action space given in the options; absent when none was given. */
  actionSpace?: () => ActionSpace;

  /** The remote env's system prompt, read at each reset; before the first, a line saying so. */
  systemPrompt(): string {
    return this.#systemPrompt ?? `An env served by ${this.urls.join(', ')} over VAGEN's remote env protocol; its system prompt is read at reset.`;
  }

  /** The session id and server, once connected. */
  get session(): { sessionId: string; url: string } | undefined {
    return this.#session === undefined ? undefined : { sessionId: this.#session.id, url: this.urls[this.#session.url]! };
  }

  async reset({ seed, options: resetOptions }: EnvResetOptions = {}): Promise<ResetResult> {
    if (resetOptions !== undefined && Object.keys(resetOptions).length > 0) {
      throw new InvalidArgumentError({ argument: 'options', expected: `no reset options (${REMOTE_ENV_ID} sends only the seed; put options in envConfig)`, value: resetOptions });
    }
    // VAGEN's protocol resets with a seed: one is drawn here when none is given.
    const episodeSeed = seed ?? Math.floor(Math.random() * 2 ** 31);
    let answer: MultipartBody | undefined;
    if (this.#session !== undefined) {
      try {
        answer = await this.#call('reset', { seed: episodeSeed });
      } catch (error) {
        // A session the server lost is replaced by a new one: a reset starts a new episode anyway.
        if (!(RemoteEnvError.isInstance(error) && error.statusCode === 404)) throw error;
        this.#session = undefined;
      }
    }
    answer ??= await this.#connect(episodeSeed);
    const observation = this.#observation(answer, 'reset');
    this.#systemPrompt = String((await this.#call('system_prompt', {})).data.obs ?? '');
    this.#done = false;
    return { observation, info: this.#info(answer.data.info) };
  }

  async step(action: string): Promise<StepResult> {
    if (this.#session === undefined) throw new InvalidStateError({ operation: 'step()', expected: 'reset() first', actual: 'no session is open' });
    if (this.#done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    const answer = await this.#call('step', { action_str: action }, { once: true });
    const reward = Number(answer.data.reward ?? 0);
    const done = answer.data.done === true;
    if (done) this.#done = true;
    return { observation: this.#observation(answer, 'step'), reward: Number.isFinite(reward) ? reward : 0, terminated: done, truncated: false, info: this.#info(answer.data.info) };
  }

  /** Closes the session (the server frees the env); errors are ignored, as the server expires idle sessions. */
  async close(): Promise<void> {
    if (this.#session === undefined) return;
    try {
      await this.#call('close', {}, { retries: 0 });
    } catch {
      // The server is gone or dropped the session already.
    } finally {
      this.#session = undefined;
    }
  }

  #headers(contentType: string): Record<string, string> {
    return { 'content-type': contentType, ...(this.#token === undefined ? {} : { 'x-api-key': this.#token }) };
  }

  /** One POST; resolves to the decoded answer or rejects with the Failure. */
  async #post(url: string, route: string, data: Record<string, unknown>): Promise<MultipartBody> {
    const encoded = encodeMultipartBody({ data, images: [] }, 'form-data');
    let response: Response;
    try {
      response = await fetch(`${url}${route}`, { method: 'POST', headers: this.#headers(encoded.contentType), body: encoded.body, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const timedOut = (error as Error).name === 'TimeoutError';
      const failure: Failure = {
        message: timedOut ? `no answer within ${this.#timeoutMs / 1000} s` : `${cause?.code ?? (error as Error).name}: ${cause?.message ?? (error as Error).message}`,
        untouched: cause?.code === 'ECONNREFUSED',
      };
      throw failure;
    }
    const type = response.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) {
      let detail = new TextDecoder().decode(bytes.subarray(0, 300));
      try {
        const body = JSON.parse(new TextDecoder().decode(bytes)) as { detail?: unknown; error?: unknown };
        detail = String(body.detail ?? body.error ?? detail);
      } catch {
        // not JSON: the text as it came
      }
      throw { message: `${response.status}: ${detail}`, statusCode: response.status, untouched: response.status === 503 } satisfies Failure;
    }
    try {
      return decodeMultipartBody(type, bytes);
    } catch (error) {
      throw { message: `an answer that is not VAGEN's multipart body (${(error as Error).message})`, untouched: false } satisfies Failure;
    }
  }

  /** Waits before retry `attempt` (1, 2, …): backoff × 2^(attempt-1), ±30 %, at most 30 s. */
  async #wait(attempt: number): Promise<void> {
    if (this.#backoffMs > 0) await sleep(Math.min(this.#backoffMs * 2 ** (attempt - 1) * (0.7 + 0.6 * Math.random()), 30_000));
  }

  /** Opens a session, moving along the URL pool after `failoverAfterFailures` failed tries on a server. */
  async #connect(seed: number): Promise<MultipartBody> {
    const start = nextStart++ % this.urls.length;
    const tried: string[] = [];
    for (let attempt = 0; ; attempt++) {
      const index = (start + Math.floor(attempt / this.#failoverAfter)) % this.urls.length;
      const url = this.urls[index]!;
      try {
        const answer = await this.#post(url, '/connect', { env_config: this.#envConfig, seed });
        const sessionId = answer.data.session_id;
        if (typeof sessionId !== 'string' || sessionId.length === 0) throw { message: `an answer without a session_id: ${JSON.stringify(answer.data).slice(0, 200)}`, untouched: false } satisfies Failure;
        this.#session = { id: sessionId, url: index };
        return answer;
      } catch (error) {
        const failure = error as Failure;
        tried.push(`${url}: ${failure.message}`);
        // A refusal of the config (400, 401, 404, 422) is the same on every server: no point in trying others.
        const refusal = failure.statusCode !== undefined && failure.statusCode >= 400 && failure.statusCode < 500;
        if (refusal || attempt >= this.#retries) {
          throw new RemoteEnvError({
            url,
            ...(failure.statusCode === undefined ? {} : { statusCode: failure.statusCode }),
            message: `${REMOTE_ENV_ID} could not open a session (POST /connect) after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${tried.join('; ')}.`,
          });
        }
        await this.#wait(attempt + 1);
      }
    }
  }

  /**
   * Calls `method` on the session's server. Retries what the server cannot have taken (and, unless
   * `once`, every failure of a connection or a 502/503/504); 404 means the session is gone.
   */
  async #call(method: string, params: Record<string, unknown>, { once = false, retries = this.#retries }: { once?: boolean; retries?: number } = {}): Promise<MultipartBody> {
    const session = this.#session!;
    const url = this.urls[session.url]!;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#post(url, '/call', { session_id: session.id, method, params });
      } catch (error) {
        const failure = error as Failure;
        const transient = failure.untouched || (!once && (failure.statusCode === undefined || failure.statusCode === 502 || failure.statusCode === 503 || failure.statusCode === 504));
        if (transient && attempt < retries) {
          await this.#wait(attempt + 1);
          continue;
        }
        if (method === 'step') this.#session = undefined;
        const lost = failure.statusCode === 404 ? ' (the server restarted or expired the session)' : failure.statusCode === undefined ? ' (the server is gone or did not answer)' : '';
        const consequence = method === 'step' ? ': the episode is lost; reset() opens a new session' : '';
        throw new RemoteEnvError({
          url,
          ...(failure.statusCode === undefined ? {} : { statusCode: failure.statusCode }),
          message: `${REMOTE_ENV_ID}: ${method} of session ${session.id} on ${url} failed after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}${lost}: ${failure.message}${consequence}.`,
        });
      }
    }
  }

  #observation(answer: MultipartBody, method: string): Observation {
    const text = typeof answer.data.obs === 'string' ? answer.data.obs : '';
    const placeholders = countImagePlaceholders(text);
    if (placeholders !== answer.images.length) {
      throw new RemoteEnvError({
        url: this.urls[this.#session?.url ?? 0]!,
        message: `${REMOTE_ENV_ID}: the ${method} answer has ${answer.images.length} image part${answer.images.length === 1 ? '' : 's'} for ${placeholders} <image> placeholder${placeholders === 1 ? '' : 's'} in its obs; expected one image per placeholder.`,
      });
    }
    return { text, images: answer.images };
  }

  /** VAGEN's info, with Saccade's metrics: VAGEN's turn and trajectory metrics flattened, `success` and `format_correct`. */
  #info(raw: unknown): EnvInfo {
    const info = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
    const metrics: Record<string, number | boolean> = {};
    const take = (source: unknown) => {
      if (typeof source !== 'object' || source === null) return;
      for (const [key, value] of Object.entries(source)) if (typeof value === 'number' || typeof value === 'boolean') metrics[key] = value;
    };
    const vagenMetrics = info.metrics as { turn_metrics?: unknown; traj_metrics?: unknown } | undefined;
    if (vagenMetrics?.turn_metrics !== undefined || vagenMetrics?.traj_metrics !== undefined) {
      take(vagenMetrics.turn_metrics);
      take(vagenMetrics.traj_metrics);
    } else {
      take(vagenMetrics);
    }
    const success = info.success ?? info.is_success;
    if (success !== undefined) metrics.success = success === true || success === 1;
    // VAGEN's envs put their response parser's result at the top of a step's info (FrozenLake,
    // Sokoban: `info.update(parse_response(...))`), its `format_correct` with it; Saccade's readers
    // look for it in metrics. A format_correct among the metrics wins.
    const format = info.format_correct;
    if (metrics.format_correct === undefined && (typeof format === 'boolean' || format === 0 || format === 1)) metrics.format_correct = format === true || format === 1;
    return { ...info, metrics };
  }
}

/** Registers `saccade/Remote-v1`: `makeEnv('saccade/Remote-v1', {baseUrls, envConfig, …})`. Calling it again re-registers it. */
export function registerRemoteEnvs(): void {
  registerEnv<VagenRemoteEnvOptions & Record<string, unknown>>(
    {
      id: REMOTE_ENV_ID,
      create: (settings) => new VagenRemoteEnv(settings),
      description: "An env on a server of VAGEN's remote env protocol (VAGEN's GymService, saccade serve env): options baseUrls, envConfig, timeout, retries, token.",
    },
    { override: true },
  );
}
