import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** Answers one request; `index` counts requests from 0. */
export type Handler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface ChatServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** Requests whose connection closed before a response was sent (cancelled by the client). */
  closedEarly: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (port 0) that records requests and lets each test answer them. */
export async function startChatServer(handler: Handler): Promise<ChatServer> {
  const state = { requests: [] as RecordedRequest[], closedEarly: 0, maxInFlight: 0, inFlight: 0 };
  const server = createServer(async (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: RecordedRequest = {
      method: incoming.method ?? '',
      url: incoming.url ?? '',
      headers: incoming.headers,
      body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
    const index = state.requests.length;
    state.requests.push(request);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    response.on('close', () => {
      state.inFlight--;
      if (!response.writableFinished) state.closedEarly++;
    });
    await handler(request, response, index);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    get closedEarly() {
      return state.closedEarly;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as ChatServer;
}

/** Sends a JSON body with a status. */
export function sendJson(response: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A chat completion with one choice per text. */
export function completion(texts: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: 'test-model',
    choices: texts.map((text, index) => ({ index, message: { role: 'assistant', content: text }, finish_reason: 'stop' })),
    usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    ...extra,
  };
}
