import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkTool, runTool } from '@saccade/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRemoteTool, type RemoteToolRequest } from './remote-tool';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const image = { data: new Uint8Array(Buffer.from(PNG.split(',')[1]!, 'base64')), mediaType: 'image/png' as const };

let server: Server;
let base = '';
const received: RemoteToolRequest[] = [];
let flaky = 0;

/** A stand-in model server: /detect answers boxes, /flaky fails twice with 503, /slow never answers, /bad answers 400. */
function handle(request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as RemoteToolRequest;
    received.push(body);
    const send = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.url === '/detect') return send(200, { text: `{"boxes": [[1, 2, 3, 4]], "phrases": ["${String(body.arguments.caption)}"]}`, images: [PNG] });
    if (request.url === '/flaky') return ++flaky <= 2 ? send(503, { error: 'busy' }) : send(200, { text: 'ok' });
    if (request.url === '/bad') return send(400, { error: 'caption is required' });
    if (request.url === '/error') return send(200, { error: 'model out of memory' });
    if (request.url === '/html') return response.writeHead(200).end('<html>');
    // /slow: never answers.
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

const tool = (path: string, settings: Partial<Parameters<typeof createRemoteTool>[0]> = {}) =>
  createRemoteTool({ name: 'grounding_dino', description: 'Open-vocabulary detection.', url: `${base}${path}`, inputSchema: z.object({ caption: z.string() }), retryDelayMs: 5, ...settings });

describe('remote tool', () => {
  it('POSTs {tool, arguments, images} and returns the text and images', async () => {
    const result = await runTool(tool('/detect'), { caption: 'red car' }, { images: [image] });
    expect(result).toMatchObject({ ok: true, result: { text: '{"boxes": [[1, 2, 3, 4]], "phrases": ["red car"]}', images: [{ mediaType: 'image/png' }] } });
    expect(received.at(-1)).toEqual({ tool: 'grounding_dino', arguments: { caption: 'red car' }, images: [PNG] });
  });

  it('retries 5xx, gives up with the reason, and reports 4xx, errors and bad bodies', async () => {
    expect(await runTool(tool('/flaky'), { caption: 'x' })).toMatchObject({ ok: true, result: { text: 'ok' } });
    expect(flaky).toBe(3);
    expect(await runTool(tool('/flaky', { retries: 0 }), { caption: 'x' })).toMatchObject({ ok: true });
    flaky = 0;
    expect(await runTool(tool('/flaky', { retries: 1 }), { caption: 'x' })).toMatchObject({ ok: false, message: `"grounding_dino" failed: the server at ${base} answered 503 (after 2 attempts)` });
    expect(await runTool(tool('/bad'), { caption: 'x' })).toMatchObject({ ok: false, message: '"grounding_dino" failed: the server answered 400: {"error":"caption is required"}' });
    expect(await runTool(tool('/error'), { caption: 'x' })).toMatchObject({ ok: false, message: '"grounding_dino" failed: model out of memory' });
    expect(await runTool(tool('/html'), { caption: 'x' })).toMatchObject({ ok: false, message: '"grounding_dino" failed: expected a JSON body {text?, images?, error?} from the server, received "<html>"' });
    expect(await runTool(tool('/detect', { url: 'http://127.0.0.1:1/detect', retries: 1 }), { caption: 'x' })).toMatchObject({ ok: false, message: expect.stringMatching(/^"grounding_dino" failed: could not reach http:\/\/127\.0\.0\.1:1: connect ECONNREFUSED .* \(after 2 attempts\)$/) });
  });

  it('times out a silent server per attempt', async () => {
    expect(await runTool(tool('/slow', { timeoutMs: 50, retries: 1 }), { caption: 'x' })).toMatchObject({ ok: false, message: `"grounding_dino" failed: could not reach ${base}: no response within 50 ms (after 2 attempts)` });
  });

  it('passes checkTool (no sockets left open)', async () => {
    expect(await checkTool(tool('/detect'), { sampleInput: { caption: 'cat' }, images: [image] })).toEqual({ ok: true, toolName: 'grounding_dino', failures: [] });
  });
});
