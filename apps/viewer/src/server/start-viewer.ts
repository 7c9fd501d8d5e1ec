import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRunFolders, RunIndex } from './run-index';
import { episodeTokens } from './episode-tokens';
import { listTrees, readTreeFile } from './mcts-trees';

/**
 * What startViewer serves (a run folder or a folder of runs), where it listens, and which built
 * front end it sends.
 */
export interface StartViewerOptions {
  /** A run folder, or a folder whose sub-folders are runs. */
  path: string;
  /** Default 127.0.0.1: the viewer shows the run's data to whoever reaches the port. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** The built front end. Default: `app/` beside this module (`dist/app`). */
  appDirectory?: string;
}

/** A running viewer: the address it listens on, and `close` to stop it. */
export interface Viewer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.json': 'application/json',
};

/**
 * The built front end, `dist/app` of this package: found from the package root, so that it is the
 * same whether this module runs from dist or, in development, from src.
 */
function builtAppDirectory(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
  return join(folder, 'dist', 'app');
}

/**
 * Starts the viewer's HTTP server on a run folder (or a folder of runs): the built front end and a
 * small read-only JSON API over the run-folder files. Runs that appear later under a folder of
 * runs are picked up on the next request.
 *
 * @example
 * const viewer = await startViewer({ path: 'runs' });
 * console.log(viewer.url); // http://127.0.0.1:41234/
 */
export async function startViewer(options: StartViewerOptions): Promise<Viewer> {
  const root = resolve(options.path);
  findRunFolders(root); // a path that is no folder fails here, before the port opens
  const appDirectory = resolve(options.appDirectory ?? builtAppDirectory());
  if (!existsSync(join(appDirectory, 'index.html'))) {
    throw new Error(`saccade view: the built front end is missing: expected ${join(appDirectory, 'index.html')} (build @saccade/viewer with \`pnpm build\`).`);
  }
  const runs = new Map<string, RunIndex>();
  const runIndex = async (name: string): Promise<RunIndex | undefined> => {
    let index = runs.get(name);
    if (index === undefined) {
      const found = findRunFolders(root).find((run) => run.name === name);
      if (found === undefined) return undefined;
      index = new RunIndex(found.path, found.name);
      runs.set(name, index);
    }
    await index.refresh();
    return index;
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: `expected GET, received ${request.method}` });
    const url = new URL(request.url ?? '/', 'http://viewer');
    const parts = url.pathname.split('/').filter((part) => part.length > 0).map(decodeURIComponent);
    if (parts[0] !== 'api') return sendStatic(response, appDirectory, url.pathname);
    if (parts[1] !== 'runs') return sendJson(response, 404, { error: `unknown API path ${url.pathname}` });
    if (parts.length === 2) {
      const list = (await Promise.all(findRunFolders(root).map(({ name }) => runIndex(name)))).map((index) => index!.info());
      return sendJson(response, 200, { runs: list });
    }
    const index = await runIndex(parts[2]!);
    if (index === undefined) return sendJson(response, 404, { error: `no run named ${parts[2]} under ${root}` });
    const rest = parts.slice(3);
    if (rest.length === 0) return sendJson(response, 200, index.info());
    if (rest[0] === 'metrics' && rest.length === 1) {
      return sendJson(response, 200, { rows: index.metrics(count(url.searchParams.get('after'))) });
    }
    if (rest[0] === 'search' && rest.length === 1) {
      return sendJson(response, 200, { indexes: index.search(url.searchParams.get('q') ?? '') });
    }
    if (rest[0] === 'episodes' && rest.length === 1) {
      const after = count(url.searchParams.get('after'));
      const head = JSON.stringify({ total: index.episodeCount, info: index.info() });
      return sendJsonText(response, 200, `${head.slice(0, -1)},"episodes":${index.episodesJson(after)}}`);
    }
    if (rest[0] === 'episodes' && rest.length >= 2) {
      const found = await index.trajectory(rest[1]!);
      if (found === undefined) return sendJson(response, 404, { error: `no episode ${rest[1]} in run ${index.name}` });
      if (rest.length === 2) return sendJson(response, 200, found);
      if (rest[2] === 'tokens' && rest.length === 3) return sendJson(response, 200, await episodeTokens(found.trajectory, index.groupRewards(found.summary.groupId)));
    }
    if (rest[0] === 'trees' && rest.length === 1) return sendJson(response, 200, { trees: listTrees(index.path) });
    if (rest[0] === 'trees' && rest.length >= 2) {
      const tree = readTreeFile(index.path, rest.slice(1).join('/'));
      if (tree === undefined) return sendJson(response, 404, { error: `no tree file ${rest.slice(1).join('/')} in run ${index.name}` });
      return sendJson(response, 200, tree);
    }
    if (rest[0] === 'images' && rest.length === 2) {
      const file = index.imagePath(rest[1]!);
      if (file === undefined) return sendJson(response, 404, { error: `no image ${rest[1]} in run ${index.name}` });
      return sendFile(response, file, 'public, max-age=31536000, immutable');
    }
    return sendJson(response, 404, { error: `unknown API path ${url.pathname}` });
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      done();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}/`,
    host,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

function count(value: string | null): number {
  const number = Number(value ?? 0);
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendJsonText(response, status, JSON.stringify(body));
}

function sendJsonText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text);
}

function sendStatic(response: ServerResponse, appDirectory: string, pathname: string): void {
  let file = resolve(join(appDirectory, decodeURIComponent(pathname)));
  if (file !== appDirectory && !file.startsWith(appDirectory + sep)) return sendJson(response, 404, { error: 'not found' });
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(appDirectory, 'index.html');
  sendFile(response, file, file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

function sendFile(response: ServerResponse, file: string, cacheControl: string): void {
  response.writeHead(200, {
    'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'content-length': statSync(file).size,
    'cache-control': cacheControl,
  });
  createReadStream(file).pipe(response);
}
