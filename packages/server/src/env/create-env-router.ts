import { decodeMultipartBody, encodeMultipartBody, type MultipartBody } from '@saccade/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createHttpService, type SaccadeServer, type ServiceOptions } from '../http/create-http-service';
import { parseBody } from '../http/parse-body';
import { ServerRequestError } from '../http/server-request-error';

/**
 * The env services createEnvRouter spreads envs over (each env id stays on one worker), besides the
 * options every service takes.
 */
export interface EnvRouterOptions extends ServiceOptions {
  /** Base URLs of the env services behind the router (e.g. `saccade serve env` processes on loopback). */
  workers: readonly string[];
}

/** FNV-1a of the id: the worker that holds an env id, the same for every request. */
export function shardOf(id: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193) >>> 0;
  return hash % count;
}

const idMap = z.record(z.string(), z.unknown());
const bodies = {
  '/environments': z.object({ ids2configs: idMap }),
  '/batch/reset': z.object({ ids2seeds: idMap }),
  '/batch/step': z.object({ ids2actions: idMap }),
  '/batch/reward': z.object({ env_ids: z.array(z.string()) }),
  '/batch/system_prompt': z.object({ env_ids: z.array(z.string()) }),
  '/batch/close': z.object({ env_ids: z.array(z.string()) }),
} as const;
type Route = keyof typeof bodies;

/**
 * VAGEN's batch protocol over several env service processes: each env id lives on one worker
 * (`shardOf`), a batch is split by worker, sent to all at once, and the answers merged (the
 * `results` of reset and step are joined as raw JSON, not re-parsed). VAGEN's client sees one
 * service; a node's cores all step envs. VAGEN's remote env sessions (`/connect`, `/call`,
 * `GET /sessions`) are routed too: a new session goes to the next worker in turn and its id is
 * prefixed with that worker (`w3-…`), so every call of the session reaches it. Saccade's own session
 * API is not routed (use a worker's URL).
 */
export function createEnvRouter(options: EnvRouterOptions): SaccadeServer {
  const workers = [...options.workers];
  if (workers.length === 0) throw new ServerRequestError({ statusCode: 500, message: 'createEnvRouter: expected at least one worker URL, received none.' });
  const server = createHttpService({
    ...options,
    name: 'env router',
    defaultBodyLimit: 64 * 1024 * 1024,
    errorBody: (_status, message) => ({ error: message }),
    // VAGEN's client reads active_environments: the workers' sum.
    health: async () => {
      const healths = await Promise.all(workers.map(async (url) => (await fetch(`${url}/health`)).json() as Promise<{ active_environments?: number; registered_envs?: string[] }>));
      return { workers, registered_envs: healths[0]?.registered_envs ?? [], active_environments: healths.reduce((sum, health) => sum + (health.active_environments ?? 0), 0) };
    },
    shutdown: async () => {},
  });
  const { app } = server;

  const send = async (worker: number, route: string, body: unknown): Promise<string> => {
    const response = await fetch(`${workers[worker]}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) {
      let message = text.slice(0, 500);
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        // not JSON: keep the text
      }
      throw new ServerRequestError({ statusCode: response.status, message: `worker ${worker} (${workers[worker]}): ${message}` });
    }
    return text;
  };

  /** Splits a map or list body by worker; only workers with ids are asked. */
  const split = (route: Route, body: Record<string, unknown>): Map<number, unknown> => {
    const [key, value] = Object.entries(body)[0] as [string, Record<string, unknown> | string[]];
    const parts = new Map<number, Record<string, unknown> | string[]>();
    if (Array.isArray(value)) {
      for (const id of value) {
        const part = (parts.get(shardOf(id, workers.length)) as string[] | undefined) ?? [];
        part.push(id);
        parts.set(shardOf(id, workers.length), part);
      }
    } else {
      for (const [id, item] of Object.entries(value)) {
        const worker = shardOf(id, workers.length);
        const part = (parts.get(worker) as Record<string, unknown> | undefined) ?? {};
        part[id] = item;
        parts.set(worker, part);
      }
    }
    void route;
    return new Map([...parts].map(([worker, part]) => [worker, { [key]: part }]));
  };

  /** `{"<field>":{…}}` answers joined into one object without parsing the (image-heavy) values. */
  const joinRaw = (field: string, texts: string[]): string => {
    const prefix = `{"${field}":{`;
    const inner = texts.map((text) => (text.startsWith(prefix) && text.endsWith('}}') ? text.slice(prefix.length, -2) : JSON.stringify((JSON.parse(text) as Record<string, object>)[field]).slice(1, -1))).filter((part) => part.length > 0);
    return `${prefix}${inner.join(',')}}}`;
  };

  for (const route of Object.keys(bodies) as Route[]) {
    app.post(route, async (request, reply) => {
      const body = parseBody(bodies[route], request.body, `VAGEN's ${route} body`) as Record<string, unknown>;
      const parts = split(route, body);
      const texts = await Promise.all([...parts].map(([worker, part]) => send(worker, route, part)));
      reply.header('content-type', 'application/json; charset=utf-8');
      if (route === '/batch/reset' || route === '/batch/step') return reply.send(joinRaw('results', texts));
      if (route === '/batch/reward') return reply.send(joinRaw('rewards', texts));
      if (route === '/batch/system_prompt') return reply.send(joinRaw('system_prompts', texts));
      if (route === '/batch/close') return reply.send({ status: 'success' });
      return reply.send({ success: true });
    });
  }

  // ---- VAGEN's remote env sessions: a session lives on one worker, named in its id ----

  let nextWorker = 0;
  const sessionPattern = /^w(\d+)-(.+)$/s;
  /** Sends a multipart body to a worker and answers with the worker's answer as it came. */
  const forward = async (reply: FastifyReply, worker: number, route: string, contentType: string, body: Uint8Array, rewrite?: (answer: MultipartBody) => MultipartBody) => {
    const response = await fetch(`${workers[worker]}${route}`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const type = response.headers.get('content-type') ?? 'application/json';
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (rewrite !== undefined && response.ok && type.startsWith('multipart/')) {
      const encoded = encodeMultipartBody(rewrite(decodeMultipartBody(type, bytes)), 'mixed');
      return reply.status(response.status).header('content-type', encoded.contentType).send(Buffer.from(encoded.body));
    }
    return reply.status(response.status).header('content-type', type).send(Buffer.from(bytes));
  };

  app.register(async (scope) => {
    scope.addContentTypeParser(/^multipart\/(form-data|mixed)/i, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const bodyOf = (request: FastifyRequest): { contentType: string; bytes: Buffer } => {
      if (!Buffer.isBuffer(request.body)) throw new ServerRequestError({ statusCode: 400, message: `Expected a multipart/form-data body with a JSON part named "data"; received content-type ${JSON.stringify(request.headers['content-type'] ?? '')}.` });
      return { contentType: request.headers['content-type'] ?? '', bytes: request.body };
    };

    // A new session goes to the next worker in turn; its id comes back prefixed with that worker.
    scope.post('/connect', async (request, reply) => {
      const { contentType, bytes } = bodyOf(request);
      const worker = nextWorker++ % workers.length;
      return forward(reply, worker, '/connect', contentType, bytes, (answer) => {
        const sessionId = answer.data.session_id;
        return typeof sessionId === 'string' ? { ...answer, data: { ...answer.data, session_id: `w${worker}-${sessionId}` } } : answer;
      });
    });

    scope.post('/call', async (request, reply) => {
      const { contentType, bytes } = bodyOf(request);
      const sent = decodeMultipartBody(contentType, bytes);
      const match = typeof sent.data.session_id === 'string' ? sessionPattern.exec(sent.data.session_id) : null;
      const worker = match === null ? undefined : Number(match[1]);
      // A missing session_id or method is the worker's to refuse (400); an id no worker made is 404.
      if (sent.data.session_id === undefined || sent.data.method === undefined) return forward(reply, 0, '/call', contentType, bytes);
      if (match === null || worker === undefined || worker >= workers.length) {
        throw new ServerRequestError({ statusCode: 404, message: `Unknown session id ${JSON.stringify(String(sent.data.session_id).slice(0, 100))}: this router's session ids start with w<worker>-.` });
      }
      const encoded = encodeMultipartBody({ ...sent, data: { ...sent.data, session_id: match[2] } }, 'form-data');
      return forward(reply, worker, '/call', encoded.contentType, encoded.body);
    });

    scope.get('/sessions', async () => {
      const stats = await Promise.all(workers.map(async (url) => (await fetch(`${url}/sessions`)).json() as Promise<{ num_sessions: number; max_sessions: number; session_timeout: number; sessions: { session_id: string }[] }>));
      return {
        num_sessions: stats.reduce((sum, stat) => sum + stat.num_sessions, 0),
        max_sessions: stats.reduce((sum, stat) => sum + stat.max_sessions, 0),
        session_timeout: stats[0]?.session_timeout ?? 0,
        sessions: stats.flatMap((stat, worker) => stat.sessions.map((session) => ({ ...session, session_id: `w${worker}-${session.session_id}` }))),
      };
    });
  });

  app.get('/workers', async () => {
    const healths = await Promise.all(workers.map(async (url) => (await fetch(`${url}/health`)).json() as Promise<Record<string, unknown>>));
    return { workers: healths.map((health, index) => ({ url: workers[index], ...health })) };
  });

  return server;
}
