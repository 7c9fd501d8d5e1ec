import { InvalidArgumentError, InvalidStateError, type Env, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { ServerRequestError } from '../http/server-request-error';
import { fromWireObservation } from './wire-observation';

/**
 * The env services a remote env talks to, the env it creates there and with which options, and how
 * requests are routed and timed out.
 */
export interface RemoteEnvSettings {
  /** Base URLs of env services (`createEnvServer`); each env lives on one of them. */
  urls: readonly string[];
  /** A registered env id on the servers, e.g. `saccade/FrozenLake-v1`. */
  envId: string;
  /** Options for the env's factory. */
  options?: Record<string, unknown>;
  /** Overrides the spec's turn limit; `null` for none. */
  maxTurns?: number | null;
  /** Picks the server: the same key always lands on the same URL (default: round robin). */
  affinityKey?: string;
  /** Time limit of one HTTP call in ms (default 60,000). */
  timeoutMs?: number;
}

// Round robin over calls without an affinity key, shared by every remote env of the process.
let nextServer = 0;

function pickUrl(urls: readonly string[], affinityKey: string | undefined): string {
  if (affinityKey === undefined) return urls[nextServer++ % urls.length]!;
  let hash = 2166136261; // FNV-1a: stable across processes, so a key keeps its server across restarts.
  for (let i = 0; i < affinityKey.length; i++) hash = Math.imul(hash ^ affinityKey.charCodeAt(i), 16777619) >>> 0;
  return urls[hash % urls.length]!;
}

async function call(url: string, method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, timeoutMs: number): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    throw new ServerRequestError({ statusCode: 503, message: `${method} ${url}${path} failed: ${cause instanceof Error ? cause.message : String(cause)}.`, cause });
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ServerRequestError({ statusCode: 502, message: `${method} ${url}${path} answered ${response.status} with text that is not JSON: ${text.slice(0, 120)}` });
  }
  if (!response.ok) {
    const error = (json as { error?: unknown })?.error;
    const message = `${method} ${url}${path} answered ${response.status}: ${typeof error === 'string' ? error : text.slice(0, 300)}`;
    // Map the server's refusals back to the errors an in-process env would throw.
    if (response.status === 409) throw new InvalidStateError({ operation: path, expected: 'a request the env accepts in its state', actual: message });
    if (response.status === 400) throw new InvalidArgumentError({ argument: path, expected: 'a request the env service accepts', value: body, message });
    throw new ServerRequestError({ statusCode: response.status, message });
  }
  return json as Record<string, unknown>;
}

/**
 * An Env that runs on an env service: every call goes to the one server its session lives on
 * (session affinity), chosen among `urls` by `affinityKey` or round robin. When the server has
 * dropped the session (idle expiry, restart), the next `reset` opens a new one; a `step` then
 * throws, as the episode is gone.
 */
export class RemoteEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  /** The server this env's session lives on. */
  readonly url: string;
  readonly #settings: RemoteEnvSettings;
  readonly #timeoutMs: number;
  #sessionId: string | undefined;
  #systemPrompt: string;

  constructor(settings: RemoteEnvSettings, url: string, session: { sessionId: string; envId: string; systemPrompt: string }) {
    this.#settings = settings;
    this.#timeoutMs = settings.timeoutMs ?? 60_000;
    this.url = url;
    this.id = session.envId;
    this.#sessionId = session.sessionId;
    this.#systemPrompt = session.systemPrompt;
  }

  /** The server-side session id (undefined once closed). */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  systemPrompt(): string {
    return this.#systemPrompt;
  }

  async reset(options: EnvResetOptions = {}): Promise<ResetResult> {
    const body = { ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.options === undefined ? {} : { options: options.options }) };
    let sessionId = this.#sessionId ?? (await this.#open());
    let result: Record<string, unknown>;
    try {
      result = await call(this.url, 'POST', `/sessions/${sessionId}/reset`, body, this.#timeoutMs);
    } catch (error) {
      if (!(ServerRequestError.isInstance(error) && error.statusCode === 404)) throw error;
      sessionId = await this.#open();
      result = await call(this.url, 'POST', `/sessions/${sessionId}/reset`, body, this.#timeoutMs);
    }
    if (typeof result.systemPrompt === 'string') this.#systemPrompt = result.systemPrompt;
    return { observation: fromWireObservation(result.observation, this.url), info: (result.info ?? {}) as ResetResult['info'] };
  }

  async step(action: string): Promise<StepResult> {
    if (this.#sessionId === undefined) throw new InvalidStateError({ operation: 'step()', expected: 'reset() to be called first', actual: 'the remote env is closed' });
    const result = await call(this.url, 'POST', `/sessions/${this.#sessionId}/step`, { action }, this.#timeoutMs);
    return {
      observation: fromWireObservation(result.observation, this.url),
      reward: Number(result.reward),
      terminated: result.terminated === true,
      truncated: result.truncated === true,
      info: (result.info ?? {}) as StepResult['info'],
    };
  }

  async close(): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return;
    this.#sessionId = undefined;
    try {
      await call(this.url, 'DELETE', `/sessions/${sessionId}`, undefined, this.#timeoutMs);
    } catch (error) {
      // Already gone (expired, server restarted): closing is done either way.
      if (!(ServerRequestError.isInstance(error) && (error.statusCode === 404 || error.statusCode === 503))) throw error;
    }
  }

  async #open(): Promise<string> {
    const session = await openSession(this.url, this.#settings, this.#timeoutMs);
    this.#sessionId = session.sessionId;
    this.#systemPrompt = session.systemPrompt;
    return session.sessionId;
  }
}

async function openSession(url: string, settings: RemoteEnvSettings, timeoutMs: number): Promise<{ sessionId: string; envId: string; systemPrompt: string }> {
  const body = { envId: settings.envId, options: settings.options ?? {}, ...(settings.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }) };
  const session = await call(url, 'POST', '/sessions', body, timeoutMs);
  if (typeof session.sessionId !== 'string' || typeof session.systemPrompt !== 'string') {
    throw new ServerRequestError({ statusCode: 502, message: `POST ${url}/sessions answered ${JSON.stringify(session).slice(0, 120)}; expected {sessionId, envId, systemPrompt}.` });
  }
  return { sessionId: session.sessionId, envId: typeof session.envId === 'string' ? session.envId : settings.envId, systemPrompt: session.systemPrompt };
}

/**
 * Opens a session for `envId` on one of `urls` and returns it as an Env.
 *
 * @example
 * const env = await createRemoteEnv({ urls: ['http://gpu-1:8001', 'http://gpu-2:8001'], envId: 'saccade/FrozenLake-v1' });
 * const { observation } = await env.reset({ seed: 0 });
 */
export async function createRemoteEnv(settings: RemoteEnvSettings): Promise<RemoteEnv> {
  const urls = Array.isArray(settings?.urls) ? settings.urls.map((url) => String(url).replace(/\/+$/, '')) : [];
  if (urls.length === 0 || urls.some((url) => !/^https?:\/\/[^/]+/.test(url))) {
    throw new InvalidArgumentError({ argument: 'urls', expected: 'a non-empty array of http(s) base URLs of env services', value: settings?.urls });
  }
  if (typeof settings.envId !== 'string' || settings.envId.length === 0) {
    throw new InvalidArgumentError({ argument: 'envId', expected: 'a registered env id such as "saccade/FrozenLake-v1"', value: settings.envId });
  }
  const url = pickUrl(urls, settings.affinityKey);
  const resolved = { ...settings, urls };
  return new RemoteEnv(resolved, url, await openSession(url, resolved, settings.timeoutMs ?? 60_000));
}
