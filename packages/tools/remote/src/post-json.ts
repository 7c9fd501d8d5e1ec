import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostJsonResponse {
  status: number;
  body: string;
}

/**
 * POSTs JSON with node:http and no connection pool (`agent: false`), so no socket outlives the
 * call; aborts on `signal` or after `timeoutMs`.
 */
export function postJson(url: URL, body: string, { headers = {}, timeoutMs, signal }: { headers?: Record<string, string>; timeoutMs: number; signal?: AbortSignal }): Promise<PostJsonResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const done = (action: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      action();
    };
    const request = send(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(() => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })));
      response.on('error', (error) => done(() => reject(error)));
    });
    const onAbort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => request.destroy(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => done(() => reject(error)));
    request.end(body);
  });
}
