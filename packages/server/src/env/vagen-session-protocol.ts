import { randomUUID } from 'node:crypto';
import { decodeMultipartBody, encodeMultipartBody, type MultipartBody } from '@saccade/core';
import type { Observation } from '@saccade/spec';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorStatus } from '../http/create-http-service';
import { parseBody } from '../http/parse-body';
import { ServerRequestError } from '../http/server-request-error';
import type { SessionStore } from '../http/session-store';
import { createHostedEnv, hostedSystemPrompt, type HostedEnv } from './hosted-env';
import { resolveEnvConfig } from './vagen-env-configs';
import { toGymInfo, vagenObservationText } from './vagen-serialisation';

/** What the env service lends VAGEN's session protocol. */
export interface VagenSessionProtocolSettings {
  /** The sessions (their idle expiry and their limit, answered 503, are the store's). */
  sessions: SessionStore<HostedEnv>;
  vagenEnvNames: Readonly<Record<string, string>>;
  maxSessions: number;
  idleTimeoutMs: number;
  /** Locks the session ids, runs the work under the request deadline, unlocks when it ends. */
  locked: <T>(ids: readonly string[], what: string, work: () => Promise<T>) => Promise<T>;
}

const seed = z.number().int().min(0).max(2 ** 53 - 1);
const connectData = z.object({ env_config: z.record(z.string(), z.unknown()).default({}), seed: seed.nullish() });
const callData = z.object({
  session_id: z.string().min(1).max(256),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).nullish(),
});
const resetParams = z.object({ seed: seed.nullish() });
const stepParams = z.object({ action_str: z.string() });

/**
 * VAGEN's stateful remote env protocol (`vagen/envs_remote/` of its main branch) on the env
 * service: `GET /sessions`, `POST /connect` and `POST /call`, bodies in multipart (one JSON part
 * named `data`, then images in the order of the `<image>` placeholders). It shares the port with
 * VAGEN's batch protocol and Saccade's session API (none of their paths collide), and creates envs
 * as `/environments` does: `env_config.env_name` is a VAGEN name or a registry id, the rest of the
 * config that env's options.
 */
export function registerVagenSessionProtocol(app: FastifyInstance, settings: VagenSessionProtocolSettings): void {
  const { sessions, vagenEnvNames, locked } = settings;

  const send = (reply: FastifyReply, body: MultipartBody) => {
    const encoded = encodeMultipartBody(body, 'mixed');
    return reply.header('content-type', encoded.contentType).send(Buffer.from(encoded.body.buffer, encoded.body.byteOffset, encoded.body.byteLength));
  };
  const decode = (request: FastifyRequest): Record<string, unknown> => {
    const body = request.body;
    if (!Buffer.isBuffer(body)) {
      throw new ServerRequestError({ statusCode: 400, message: `Expected a multipart/form-data body with a JSON part named "data"; received content-type ${JSON.stringify(request.headers['content-type'] ?? '')}.` });
    }
    return decodeMultipartBody(request.headers['content-type'] ?? '', body).data;
  };
  const observationBody = (hosted: HostedEnv, observation: Observation, fields: Record<string, unknown>): MultipartBody => ({
    data: { obs: vagenObservationText(observation, hosted.imagePlaceholder), ...fields },
    images: observation.images,
  });
  const reset = async (hosted: HostedEnv, episodeSeed: number | null | undefined) => {
    const { observation, info } = await hosted.env.reset(episodeSeed === null || episodeSeed === undefined ? {} : { seed: episodeSeed });
    hosted.phase = 'running';
    return observationBody(hosted, observation, { info: toGymInfo(info) });
  };

  app.register(async (scope) => {
    // Multipart bodies reach the handlers as bytes; the JSON routes of the other protocols are outside this scope.
    scope.addContentTypeParser(/^multipart\/(form-data|mixed)/i, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // FastAPI's error body, as VAGEN's GymService answers.
    scope.setErrorHandler((error, request, reply) => {
      const known = errorStatus(error);
      if (known === undefined) {
        request.log.error({ err: error }, 'request failed');
        return reply.status(500).send({ detail: `Internal server error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 500)}` });
      }
      request.log.info({ statusCode: known.statusCode, error: known.message.slice(0, 300) }, 'request refused');
      return reply.status(known.statusCode).send({ detail: known.message });
    });

    scope.get('/sessions', async () => {
      const now = Date.now();
      const timeoutS = settings.idleTimeoutMs / 1000;
      return {
        num_sessions: sessions.size,
        max_sessions: settings.maxSessions,
        session_timeout: timeoutS,
        sessions: sessions.ids().map((sessionId) => {
          const lastAccess = sessions.lastUsed(sessionId) ?? now;
          const idle = (now - lastAccess) / 1000;
          return { session_id: sessionId, created_at: (sessions.peek(sessionId)?.createdAt ?? now) / 1000, last_access: lastAccess / 1000, idle_seconds: idle, will_timeout_in: Math.max(0, timeoutS - idle) };
        }),
      };
    });

    scope.post('/connect', async (request, reply) => {
      const data = parseBody(connectData, decode(request), '{"env_config": {"env_name": string, ...options}, "seed"?: int}');
      const { env_name: envName, ...config } = data.env_config;
      if (typeof envName !== 'string' || envName.length === 0) {
        throw new ServerRequestError({
          statusCode: 400,
          message: `env_config.env_name is required: expected one of ${[...Object.keys(vagenEnvNames), 'a registered env id'].join(', ')}, received ${JSON.stringify(envName) ?? 'none'}.`,
        });
      }
      const resolved = resolveEnvConfig(envName, config, vagenEnvNames);
      sessions.assertRoom(1);
      let hosted: HostedEnv;
      try {
        hosted = createHostedEnv(resolved);
      } catch (error) {
        throw new ServerRequestError({ statusCode: 400, message: `env "${envName.slice(0, 100)}" could not be created: ${error instanceof Error ? error.message : String(error)}`, cause: error });
      }
      const sessionId = randomUUID().replaceAll('-', '');
      await sessions.set(sessionId, hosted);
      request.log.info({ sessionId, envName, envId: resolved.envId, seed: data.seed, ignoredKeys: resolved.ignoredKeys }, 'session connected');
      if (data.seed === null || data.seed === undefined) return send(reply, { data: { session_id: sessionId }, images: [] });
      try {
        const body = await locked([sessionId], `reset of session ${sessionId}`, () => reset(hosted, data.seed));
        return send(reply, { ...body, data: { session_id: sessionId, ...body.data } });
      } catch (error) {
        // No session is left behind for a connect that failed.
        await sessions.delete(sessionId);
        throw error;
      }
    });

    scope.post('/call', async (request, reply) => {
      const raw = decode(request);
      if (typeof raw.session_id !== 'string' || raw.session_id.length === 0) throw new ServerRequestError({ statusCode: 400, message: 'session_id required: expected a data part {"session_id", "method", "params"}.' });
      if (typeof raw.method !== 'string' || raw.method.length === 0) throw new ServerRequestError({ statusCode: 400, message: 'method required: one of system_prompt, reset, step, close.' });
      const { session_id: sessionId, method, params } = parseBody(callData, raw, '{"session_id": string, "method": string, "params"?: {...}}');
      if (method === 'close') {
        return locked([sessionId], `close of session ${sessionId}`, async () => {
          await sessions.delete(sessionId);
          return send(reply, { data: { closed: true }, images: [] });
        });
      }
      if (method !== 'system_prompt' && method !== 'reset' && method !== 'step') {
        throw new ServerRequestError({ statusCode: 400, message: `Unknown method ${JSON.stringify(method.slice(0, 100))}: expected system_prompt, reset, step or close.` });
      }
      const body = await locked([sessionId], `${method} of session ${sessionId}`, async (): Promise<MultipartBody> => {
        const hosted = sessions.get(sessionId);
        if (method === 'system_prompt') return { data: { obs: hostedSystemPrompt(hosted) }, images: [] };
        if (method === 'reset') return reset(hosted, parseBody(resetParams, params ?? {}, '{"seed": int}').seed);
        const { action_str: action } = parseBody(stepParams, params ?? {}, '{"action_str": string}');
        if (hosted.phase !== 'running') {
          throw new ServerRequestError({ statusCode: 409, message: `Cannot step session ${sessionId}: ${hosted.phase === 'done' ? 'its episode ended' : 'it was never reset'}; reset it first.` });
        }
        const { observation, reward, terminated, truncated, info } = await hosted.env.step(action);
        if (terminated || truncated) hosted.phase = 'done';
        return observationBody(hosted, observation, { reward, done: terminated || truncated, info: { ...toGymInfo(info), terminated, truncated } });
      });
      return send(reply, body);
    });
  });
}
