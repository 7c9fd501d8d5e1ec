/** Test helpers: JSON over real HTTP on loopback. */
export interface JsonResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function request(url: string, method: string, body?: unknown, { raw }: { raw?: string } = {}): Promise<JsonResponse> {
  const init: RequestInit = { method };
  if (raw !== undefined || body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = raw ?? JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, json: text.length > 0 ? JSON.parse(text) : undefined };
}

export const post = (url: string, body?: unknown) => request(url, 'POST', body);
export const get = (url: string) => request(url, 'GET');
