import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a {@link StandInServer} received. */
export interface RecordedRequest {
  /** `GET`, `POST`… */
  method: string;
  /** The path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** The headers, lower-case names. */
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text (`''` when there was none). */
  body: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
}

/** How a {@link StandInServer} answers one request. */
export interface StandInReply {
  /** The HTTP status. Default 200. */
  status?: number;
  /** A body sent as JSON (`content-type: application/json`). */
  json?: unknown;
  /** A body sent as it is, when there is no `json`. */
  text?: string;
}

/**
 * Answers one request: a reply, or undefined to never answer it (a server that hangs, for timeout
 * tests).
 */
export type StandInHandler = (request: RecordedRequest) => StandInReply | undefined | Promise<StandInReply | undefined>;

/** A running {@link startStandInServer}. */
export interface StandInServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Every request received so far, in order; clear it with `requests.length = 0`. */
  requests: RecordedRequest[];
  /** Drops open connections (hung requests included) and stops listening. */
  close(): Promise<void>;
}

/**
 * An HTTP server on a free loopback port that records each request and answers it as `handler`
 * says: a stand-in for a model, tool or env server in tests of a client (a remote tool, an
 * OpenAI-compatible agent). A handler that throws answers 500 with the error's message.
 *
 * @example
 * const server = await startStandInServer(({ path, json }) => (path === '/detect' ? { json: { text: `saw ${(json as { caption: string }).caption}` } } : { status: 404, text: 'no such path' }));
 * afterAll(() => server.close());
 */
export async function startStandInServer(handler: StandInHandler): Promise<StandInServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers, body, json: parseJson(body) };
      requests.push(request);
      Promise.resolve()
        .then(() => handler(request))
        .then(
          (reply) => {
            if (reply === undefined) return;
            if (reply.json !== undefined) response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
            else response.writeHead(reply.status ?? 200).end(reply.text ?? '');
          },
          (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error)),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
