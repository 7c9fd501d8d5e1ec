import { checkTool, runTool } from '@saccade/core';
import { startStandInServer, type RecordedRequest, type StandInServer } from '@saccade/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRemoteTool, type RemoteToolRequest } from './remote-tool';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const image = { data: new Uint8Array(Buffer.from(PNG.split(',')[1]!, 'base64')), mediaType: 'image/png' as const };

let server: StandInServer;
let base = '';
let flaky = 0;

/** A stand-in model server: /detect answers boxes, /flaky fails twice with 503, /slow never answers, /bad answers 400. */
function answer({ path, json }: RecordedRequest) {
  const body = json as RemoteToolRequest;
  if (path === '/detect') return { json: { text: `{"boxes": [[1, 2, 3, 4]], "phrases": ["${String(body.arguments.caption)}"]}`, images: [PNG] } };
  if (path === '/flaky') return ++flaky <= 2 ? { status: 503, json: { error: 'busy' } } : { json: { text: 'ok' } };
  if (path === '/bad') return { status: 400, json: { error: 'caption is required' } };
  if (path === '/error') return { json: { error: 'model out of memory' } };
  if (path === '/html') return { text: '<html>' };
  return undefined; // /slow: never answers.
}

beforeAll(async () => {
  server = await startStandInServer(answer);
  base = server.url;
});
afterAll(() => server.close());

const tool = (path: string, settings: Partial<Parameters<typeof createRemoteTool>[0]> = {}) =>
  createRemoteTool({ name: 'grounding_dino', description: 'Open-vocabulary detection.', url: `${base}${path}`, inputSchema: z.object({ caption: z.string() }), retryDelayMs: 5, ...settings });

describe('remote tool', () => {
  it('POSTs {tool, arguments, images} and returns the text and images', async () => {
    const result = await runTool(tool('/detect'), { caption: 'red car' }, { images: [image] });
    expect(result).toMatchObject({ ok: true, result: { text: '{"boxes": [[1, 2, 3, 4]], "phrases": ["red car"]}', images: [{ mediaType: 'image/png' }] } });
    expect(server.requests.at(-1)?.json).toEqual({ tool: 'grounding_dino', arguments: { caption: 'red car' }, images: [PNG] });
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
