import { timingSafeEqual } from 'node:crypto';
import { EnvNotFoundError, InvalidArgumentError, InvalidStateError, TimeoutError } from '@saccade/spec';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ServerRequestError } from './server-request-error';

/** Settings every service takes. */
export interface ServiceOptions {
  /** Interface to bind (default `127.0.0.1`; `0.0.0.0` to serve other machines). */
  host?: string;
  /** Largest request body in bytes; larger ones are answered 413. */
  bodyLimit?: number;
  /** Longest one request may take before it is answered 504 (and its work signalled to stop). */
  requestTimeoutMs?: number;
  /** Per-id state unused this long is freed (ms; 0 keeps it forever). */
  idleTimeoutMs?: number;
  /** Fastify's logger: `false` for none, `true` or pino options for JSON lines on stdout (default `{level: 'info'}`). */
  logger?: FastifyServerOptions['logger'];
  /**
   * A key every request but `GET /health` must carry, in `x-api-key`, `?token=` (VAGEN's remote env
   * clients) or `Authorization: Bearer` (OpenAI clients); others are answered 401. Default: none.
   */
  apiKey?: string;
}

/** A started or startable service. */
export interface SaccadeServer {
  /** Starts listening (port 0 picks a free one); resolves to the base URL, e.g. `http://127.0.0.1:8000`. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops taking requests, lets those in flight finish, then frees every env, session and model. */
  close(): Promise<void>;
  /** The base URL once listening; throws before `listen`. */
  readonly url: string;
  /** The Fastify instance (add routes or hooks; inject requests in tests). */
  readonly app: FastifyInstance;
}

export interface HttpServiceSettings extends ServiceOptions {
  /** The service name in logs and `/health`. */
  name: string;
  defaultBodyLimit: number;
  /** The error body of this protocol (VAGEN and verl-tool: `{error}`; OpenAI: `{error: {message, type, code}}`). */
  errorBody: (statusCode: number, message: string, code: string | undefined) => unknown;
  /** Extra `/health` fields. */
  health: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Runs before `listen` binds (e.g. load the model). */
  prepare?: () => Promise<void>;
  /** Frees the service's state after the last request finished. */
  shutdown: () => Promise<void>;
}

/** The status and message a handler's error is answered with; undefined for an unexpected error (500). */
export function errorStatus(error: unknown): { statusCode: number; message: string; code?: string } | undefined {
  if (ServerRequestError.isInstance(error)) return { statusCode: error.statusCode, message: error.message, ...(error.code === undefined ? {} : { code: error.code }) };
  if (EnvNotFoundError.isInstance(error) || InvalidArgumentError.isInstance(error)) return { statusCode: 400, message: error.message };
  if (InvalidStateError.isInstance(error)) return { statusCode: 409, message: error.message };
  if (TimeoutError.isInstance(error)) return { statusCode: 504, message: error.message };
  const fastifyError = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const code = typeof fastifyError.code === 'string' ? fastifyError.code : undefined;
    const message = String(fastifyError.message ?? 'Bad request');
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { statusCode: 413, message: 'Request body is larger than the service accepts (see its bodyLimit); send fewer or smaller items per request.' };
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { statusCode: 415, message: `${message}; expected content-type: application/json.` };
    if (error instanceof SyntaxError || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/i.test(message)) {
      return { statusCode: 400, message: `Invalid JSON body: ${message}.` };
    }
    return { statusCode: fastifyError.statusCode, message };
  }
  return undefined;
}

/** A Fastify app with the error handling, `/health`, limits, logs and shutdown every service shares. */
export function createHttpService(settings: HttpServiceSettings): SaccadeServer {
  const started = Date.now();
  const app = Fastify({
    logger: settings.logger ?? { level: 'info' },
    bodyLimit: settings.bodyLimit ?? settings.defaultBodyLimit,
    // Time to receive a whole request; handlers enforce their own deadline on the work.
    requestTimeout: settings.requestTimeoutMs ?? 0,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  app.setErrorHandler((error, request, reply) => {
    const known = errorStatus(error);
    if (known === undefined) {
      request.log.error({ err: error }, 'request failed');
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      return reply.status(500).send(settings.errorBody(500, `Internal server error: ${message.slice(0, 500)}`, undefined));
    }
    request.log.info({ statusCode: known.statusCode, error: known.message.slice(0, 300) }, 'request refused');
    return reply.status(known.statusCode).send(settings.errorBody(known.statusCode, known.message, known.code));
  });

  app.setNotFoundHandler((request, reply) => {
    const routes = app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .map((line) => line.replace(/^[\s│├└─]+/, '').trim())
      .filter((line) => line.length > 0);
    return reply
      .status(404)
      .send(settings.errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}; this ${settings.name} serves: ${routes.join(', ')}.`, 'not_found'));
  });

  if (settings.apiKey !== undefined && settings.apiKey.length > 0) {
    const expected = Buffer.from(settings.apiKey);
    const matches = (given: unknown) => typeof given === 'string' && given.length === expected.length && timingSafeEqual(Buffer.from(given), expected);
    app.addHook('onRequest', async (request, reply) => {
      if (request.method === 'GET' && request.url.split('?')[0] === '/health') return;
      const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (matches(request.headers['x-api-key']) || matches((request.query as Record<string, unknown> | undefined)?.token) || matches(bearer)) return;
      request.log.info({ url: request.url.split('?')[0] }, 'request refused: no valid API key');
      return reply.status(401).send(settings.errorBody(401, 'Unauthorized: this service needs its API key in the x-api-key header, ?token= or Authorization: Bearer.', 'unauthorized'));
    });
  }

  app.get('/health', async () => ({ status: 'ok', service: settings.name, uptime_s: Math.round((Date.now() - started) / 1000), ...(await settings.health()) }));

  app.addHook('onClose', async () => {
    await settings.shutdown();
  });

  let url: string | undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    get url(): string {
      if (url === undefined) throw new InvalidStateError({ operation: 'url', expected: 'listen() to have resolved', actual: 'the server is not listening' });
      return url;
    },
    async listen(port = 0, host = settings.host ?? '127.0.0.1'): Promise<string> {
      await settings.prepare?.();
      await app.listen({ port, host });
      const address = app.server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : port;
      url = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`;
      app.log.info({ url, service: settings.name }, 'listening');
      return url;
    },
    close(): Promise<void> {
      closing ??= app.close().then(() => undefined);
      return closing;
    },
  };
}
