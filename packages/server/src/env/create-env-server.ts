import { randomUUID } from 'node:crypto';
import { listEnvs, makeEnv } from '@saccade/core';
import { z } from 'zod';
import { createHttpService, type SaccadeServer, type ServiceOptions } from '../http/create-http-service';
import { parseBody } from '../http/parse-body';
import { ServerRequestError } from '../http/server-request-error';
import { SessionStore } from '../http/session-store';
import { withDeadline } from '../http/with-deadline';
import { createHostedEnv, hostedSystemPrompt, type HostedEnv } from './hosted-env';
import { resolveEnvConfig } from './vagen-env-configs';
import { registerVagenSessionProtocol } from './vagen-session-protocol';
import { toVagenInfo, toVagenObservation } from './vagen-serialisation';
import { toWireObservation } from './wire-observation';

/**
 * Which VAGEN env names createEnvServer serves and how many envs it holds at once, besides the
 * options every service takes.
 */
export interface EnvServerOptions extends ServiceOptions {
  /**
   * VAGEN env names → registered env ids they create, e.g. `{frozenlake: 'saccade/FrozenLake-v1'}`.
   * The names `frozenlake`, `sokoban` and `svg` take VAGEN's config keys (VAGEN_CONFIG_NAMES); any
   * other name takes the env's own options. Every registered id is also served under its id. The
   * caller registers the envs (core's registry): this package names none.
   */
  vagenEnvNames?: Readonly<Record<string, string>>;
  /** Most envs held at once, per API (VAGEN ids, sessions of each session protocol); more are answered 503 (default 4096). */
  maxEnvironments?: number;
}

const id = z.string().min(1).max(256);
const seed = z.number().int().min(0).max(2 ** 53 - 1);
const ids2configsBody = z.object({
  ids2configs: z.record(id, z.looseObject({ env_name: z.string().min(1).max(200), env_config: z.record(z.string(), z.unknown()).nullish(), seed: seed.nullish() })),
});
const ids2seedsBody = z.object({ ids2seeds: z.record(id, seed.nullable()) });
const ids2actionsBody = z.object({ ids2actions: z.record(id, z.string()) });
const envIdsBody = z.object({ env_ids: z.array(id) });
const createSessionBody = z.object({ envId: z.string().min(1).max(200), options: z.record(z.string(), z.unknown()).optional(), maxTurns: z.number().int().positive().nullable().optional() });
const resetSessionBody = z.object({ seed: seed.optional(), options: z.record(z.string(), z.unknown()).optional() }).nullish();
const stepSessionBody = z.object({ action: z.string() });
const sessionParams = z.object({ sessionId: id });

/**
 * The env service. Three APIs over the same registry, on one port (their paths do not collide):
 * - VAGEN's batch env protocol (`POST /environments`, `/batch/reset|step|reward|system_prompt|close`),
 *   so VAGEN's own client and trainer drive Saccade envs unchanged (REFERENCE §7);
 * - VAGEN's remote env sessions of its main branch (`POST /connect`, `POST /call`, `GET /sessions`,
 *   multipart bodies), so its `GymImageEnvClient` plays Saccade envs (`registerVagenSessionProtocol`);
 * - a session API (`/sessions…`) for `createRemoteEnv`, one env per session.
 * VAGEN's batch calls answer every id: an unknown, busy or finished id (or an env that throws) gets
 * its own result with `info.error` and done true, never a refusal of the batch. The session API
 * answers a busy id 409 and an unknown one 404. Bad bodies are 400, oversized 413.
 */
export function createEnvServer(options: EnvServerOptions = {}): SaccadeServer {
  const vagenEnvNames = { ...(options.vagenEnvNames ?? {}) };
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const maxEntries = options.maxEnvironments ?? 4096;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const storeOptions = (kind: string) => ({
    kind,
    idleTimeoutMs,
    maxEntries,
    dispose: (hosted: HostedEnv) => hosted.env.close(),
    onExpire: (expired: string, idleMs: number) => server.app.log.info({ [kind]: expired, idleMs }, `${kind} expired`),
    onError: (error: unknown, failed: string) => server.app.log.warn({ err: error, [kind]: failed }, `closing the ${kind} failed`),
  });
  const environments = new SessionStore<HostedEnv>(storeOptions('environment'));
  const sessions = new SessionStore<HostedEnv>(storeOptions('session'));
  const gymSessions = new SessionStore<HostedEnv>(storeOptions('session'));

  const server = createHttpService({
    ...options,
    name: 'env service',
    defaultBodyLimit: 16 * 1024 * 1024,
    requestTimeoutMs,
    errorBody: (_status, message) => ({ error: message }),
    health: () => ({
      // `ok` is what VAGEN's GymService answers.
      ok: true,
      registered_envs: [...Object.keys(vagenEnvNames), ...listEnvs()],
      active_environments: environments.size,
      active_sessions: sessions.size,
      gym_sessions: gymSessions.size,
    }),
    shutdown: async () => {
      await Promise.all([environments.clear(), sessions.clear(), gymSessions.clear()]);
    },
  });
  const { app } = server;

  /** Locks `ids`, runs `work` under the request deadline, unlocks when the work (not the deadline) ends. */
  const locked = <T>(store: SessionStore<HostedEnv>, ids: readonly string[], what: string, work: () => Promise<T>, allowMissing = false): Promise<T> => {
    const release = store.acquire(ids, { allowMissing });
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      release();
      throw error;
    }
    running = running.finally(release);
    return withDeadline(requestTimeoutMs, what, () => running);
  };

  // ---- VAGEN's batch protocol ----

  app.post('/environments', async (request) => {
    const { ids2configs } = parseBody(ids2configsBody, request.body, '{"ids2configs": {id: {"env_name": string, "env_config": {...}, "seed": int}}}');
    const entries = Object.entries(ids2configs);
    const resolved = entries.map(([envKey, { env_name, env_config }]) => {
      try {
        return { envKey, envName: env_name, config: resolveEnvConfig(env_name, env_config ?? {}, vagenEnvNames) };
      } catch (error) {
        if (ServerRequestError.isInstance(error)) throw new ServerRequestError({ statusCode: error.statusCode, message: `Environment "${envKey}": ${error.message}` });
        throw error;
      }
    });
    const fresh = entries.filter(([envKey]) => !environments.has(envKey)).length;
    environments.assertRoom(fresh);
    return locked(environments, entries.map(([envKey]) => envKey), `POST /environments (${entries.length} envs)`, async () => {
      const created: { envKey: string; hosted: HostedEnv }[] = [];
      try {
        for (const { envKey, config } of resolved) created.push({ envKey, hosted: createHostedEnv(config) });
      } catch (error) {
        await Promise.allSettled(created.map(({ hosted }) => hosted.env.close()));
        const which = resolved[created.length]?.envKey;
        throw new ServerRequestError({ statusCode: 400, message: `Environment "${which}" could not be created: ${error instanceof Error ? error.message : String(error)}`, cause: error });
      }
      await Promise.all(created.map(({ envKey, hosted }) => environments.set(envKey, hosted)));
      const ignored = [...new Set(resolved.flatMap(({ config }) => config.ignoredKeys))];
      app.log.info({ count: created.length, envNames: [...new Set(resolved.map(({ envName }) => envName))], ignoredKeys: ignored }, 'environments created');
      return { success: true };
    }, true);
  });

  /**
   * VAGEN's service never refuses a batch for one env: each id gets its own result, and a per-env
   * problem (unknown id, busy, never reset, episode over, the env threw) comes back in that env's
   * `info.error`. Returns the ids this request may work on, locked, and the refusals of the rest.
   */
  const lockKnown = (ids: readonly string[], problem: (hosted: HostedEnv) => string | undefined) => {
    const refused = new Map<string, string>();
    const usable: string[] = [];
    for (const envKey of new Set(ids)) {
      if (!environments.has(envKey)) refused.set(envKey, `Unknown environment id "${envKey.slice(0, 100)}": create it with POST /environments first (it may also have expired after ${idleTimeoutMs} ms idle).`);
      else if (environments.isBusy(envKey)) refused.set(envKey, `The environment "${envKey.slice(0, 100)}" is busy with another request; expected one request per id at a time.`);
      else {
        const reason = problem(environments.get(envKey));
        if (reason === undefined) usable.push(envKey);
        else refused.set(envKey, reason);
      }
    }
    return { usable, refused, release: environments.acquire(usable) };
  };
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const errorInfo = (message: string, extra: Record<string, unknown> = {}) => ({ error: message, ...extra, metrics: { turn_metrics: {}, traj_metrics: {} } });

  app.post('/batch/reset', async (request) => {
    const { ids2seeds } = parseBody(ids2seedsBody, request.body, '{"ids2seeds": {id: int | null}}');
    const ids = Object.keys(ids2seeds);
    const { usable, refused, release } = lockKnown(ids, () => undefined);
    const running = Promise.all(
      usable.map(async (envKey) => {
        const hosted = environments.get(envKey);
        const envSeed = ids2seeds[envKey];
        try {
          const { observation, info } = await hosted.env.reset(envSeed === null || envSeed === undefined ? {} : { seed: envSeed });
          hosted.phase = 'running';
          return [envKey, [toVagenObservation(observation, hosted.imagePlaceholder), toVagenInfo(info)]] as const;
        } catch (error) {
          hosted.phase = 'done';
          return [envKey, [{ obs_str: '' }, errorInfo(`Reset failed: ${messageOf(error)}`)]] as const;
        }
      }),
    ).finally(release);
    const results = await withDeadline(requestTimeoutMs, `POST /batch/reset (${ids.length} envs)`, () => running);
    const refusedResults = [...refused].map(([envKey, message]) => [envKey, [{ obs_str: '' }, errorInfo(message)]] as const);
    return { results: Object.fromEntries([...results, ...refusedResults]) };
  });

  app.post('/batch/step', async (request) => {
    const { ids2actions } = parseBody(ids2actionsBody, request.body, '{"ids2actions": {id: "the model\'s raw response"}}');
    const ids = Object.keys(ids2actions);
    const { usable, refused, release } = lockKnown(ids, (hosted) =>
      hosted.phase === 'running' ? undefined : hosted.phase === 'done' ? 'Cannot step: its episode ended; reset it first.' : 'Cannot step: it was never reset; reset it first.',
    );
    const running = Promise.all(
      usable.map(async (envKey) => {
        const hosted = environments.get(envKey);
        const action = ids2actions[envKey] ?? '';
        try {
          const { observation, reward, terminated, truncated, info } = await hosted.env.step(action);
          const done = terminated || truncated;
          if (done) hosted.phase = 'done';
          // VAGEN's rollout manager reads the response back from info.llm_raw_response.
          return [envKey, [toVagenObservation(observation, hosted.imagePlaceholder), reward, done, { ...toVagenInfo(info), terminated, truncated, llm_raw_response: action }]] as const;
        } catch (error) {
          hosted.phase = 'done';
          return [envKey, [{ obs_str: '' }, 0, true, errorInfo(`Step failed: ${messageOf(error)}`, { llm_raw_response: action })]] as const;
        }
      }),
    ).finally(release);
    const results = await withDeadline(requestTimeoutMs, `POST /batch/step (${ids.length} envs)`, () => running);
    const refusedResults = [...refused].map(([envKey, message]) => [envKey, [{ obs_str: '' }, 0, true, errorInfo(message, { llm_raw_response: ids2actions[envKey] ?? '' })]] as const);
    return { results: Object.fromEntries([...results, ...refusedResults]) };
  });

  // VAGEN's compute_reward is a reward on top of the step rewards; Saccade envs give all their reward per step.
  // Unknown ids get 0, as VAGEN's service answers an env it cannot score.
  app.post('/batch/reward', async (request) => {
    const { env_ids } = parseBody(envIdsBody, request.body, '{"env_ids": [id, ...]}');
    return { rewards: Object.fromEntries(env_ids.map((envKey) => [envKey, 0])) };
  });

  // Unknown ids get an empty prompt, as VAGEN's service answers an env it does not hold.
  app.post('/batch/system_prompt', async (request) => {
    const { env_ids } = parseBody(envIdsBody, request.body, '{"env_ids": [id, ...]}');
    return {
      system_prompts: Object.fromEntries(env_ids.map((envKey) => [envKey, environments.has(envKey) ? hostedSystemPrompt(environments.get(envKey)) : ''])),
    };
  });

  // Closing is idempotent: ids already closed (or never created) are skipped.
  app.post('/batch/close', async (request) => {
    const { env_ids } = parseBody(envIdsBody, request.body, '{"env_ids": [id, ...]}');
    return locked(environments, env_ids, `POST /batch/close (${env_ids.length} envs)`, async () => {
      await Promise.all(env_ids.map((envKey) => environments.delete(envKey)));
      return { status: 'success' };
    }, true);
  });

  // ---- VAGEN's remote env sessions (its main branch: /connect, /call, GET /sessions) ----

  registerVagenSessionProtocol(app, {
    sessions: gymSessions,
    vagenEnvNames,
    maxSessions: maxEntries,
    idleTimeoutMs,
    locked: (ids, what, work) => locked(gymSessions, ids, what, work),
  });

  // ---- Saccade's session API (createRemoteEnv) ----

  app.post('/sessions', async (request, reply) => {
    const body = parseBody(createSessionBody, request.body, '{"envId": "namespace/Name-vN", "options"?: {...}, "maxTurns"?: int | null}');
    sessions.assertRoom(1);
    const env = makeEnv(body.envId, body.options ?? {}, body.maxTurns === undefined ? {} : { maxTurns: body.maxTurns });
    const sessionId = randomUUID();
    await sessions.set(sessionId, { env, envId: body.envId, imagePlaceholder: '<image>', phase: 'created', createdAt: Date.now() });
    request.log.info({ sessionId, envId: body.envId }, 'session created');
    return reply.status(201).send({ sessionId, envId: env.id, systemPrompt: env.systemPrompt() });
  });

  app.get('/sessions/:sessionId', async (request) => {
    const { sessionId } = parseBody(sessionParams, request.params, 'a session id');
    const hosted = sessions.get(sessionId);
    return { sessionId, envId: hosted.env.id, systemPrompt: hosted.env.systemPrompt(), phase: hosted.phase };
  });

  app.post('/sessions/:sessionId/reset', async (request) => {
    const { sessionId } = parseBody(sessionParams, request.params, 'a session id');
    const body = parseBody(resetSessionBody, request.body, '{"seed"?: int, "options"?: {...}}') ?? {};
    return locked(sessions, [sessionId], `reset of session ${sessionId}`, async () => {
      const hosted = sessions.get(sessionId);
      const { observation, info } = await hosted.env.reset(body);
      hosted.phase = 'running';
      return { observation: toWireObservation(observation), info, systemPrompt: hosted.env.systemPrompt() };
    });
  });

  app.post('/sessions/:sessionId/step', async (request) => {
    const { sessionId } = parseBody(sessionParams, request.params, 'a session id');
    const { action } = parseBody(stepSessionBody, request.body, '{"action": string}');
    return locked(sessions, [sessionId], `step of session ${sessionId}`, async () => {
      const hosted = sessions.get(sessionId);
      const result = await hosted.env.step(action);
      if (result.terminated || result.truncated) hosted.phase = 'done';
      return { ...result, observation: toWireObservation(result.observation) };
    });
  });

  app.delete('/sessions/:sessionId', async (request) => {
    const { sessionId } = parseBody(sessionParams, request.params, 'a session id');
    return locked(sessions, [sessionId], `close of session ${sessionId}`, async () => ({ closed: await sessions.delete(sessionId) }));
  });

  return server;
}
