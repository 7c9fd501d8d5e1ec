/** VAGEN main's GymService around the LineWalk env (test/python/line_walk_service.py), as a child process. */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { findPython } from '../../../server/test/python';

export { findPython };

const script = fileURLToPath(new URL('./python/line_walk_service.py', import.meta.url));

export interface LineWalkService {
  url: string;
  /** Kills the server (SIGKILL: gone at once, as a crashed node) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The URL of a loopback port nothing listens on (it was free a moment ago): connections are refused. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Starts the service on `port` (0: a free one). */
export async function startLineWalkService(python: string, apiKey = '', port = 0): Promise<LineWalkService> {
  // stderr is kept, not shown: the service logs a traceback for every refusal the tests provoke.
  const child = spawn(python, [script, apiKey, String(port)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string | undefined;
  const url = first === undefined ? undefined : /listening on (\S+)/.exec(first)?.[1];
  if (url === undefined) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`line_walk_service.py did not start (its first line: ${JSON.stringify(first ?? '')}; its stderr: ${stderr})`);
  }
  // uvicorn accepts once its loop runs: wait for /health.
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The Python modules VAGEN main's GymService needs. */
export const LINE_WALK_MODULES = ['httpx', 'PIL', 'fastapi', 'uvicorn'] as const;

/** What {@link lineWalkSuite} gives a test file. */
export interface LineWalkSuite {
  /** No Python here has {@link LINE_WALK_MODULES}: skip the suite (a warning says why). */
  skip: boolean;
  /** The Python that has them (`python3` when skipping). */
  python: string;
  /** Starts the service before the calling suite's tests and stops it after them: call it inside `describe`. */
  startAroundSuite(): void;
  /** The running service; an error before the suite started it. */
  readonly service: LineWalkService;
}

/**
 * The set-up every suite against the service repeats: find a Python with the service's modules
 * (warning, with `what`, why the tests are skipped when there is none) and start one service with
 * `apiKey` around the suite.
 *
 * @example
 * const lineWalk = await lineWalkSuite('saccade eval against GymService', KEY);
 * describe.skipIf(lineWalk.skip)('…', () => {
 *   lineWalk.startAroundSuite();
 *   test('…', () => makeEnv(REMOTE_ENV_ID, { baseUrls: lineWalk.service.url, token: KEY }));
 * });
 */
export async function lineWalkSuite(what: string, apiKey = ''): Promise<LineWalkSuite> {
  const found = await findPython(LINE_WALK_MODULES);
  if ('skip' in found) console.warn(`${what}: tests ${found.skip}`);
  const python = 'python' in found ? found.python : 'python3';
  let running: LineWalkService | undefined;
  return {
    skip: 'skip' in found,
    python,
    startAroundSuite() {
      beforeAll(async () => {
        running = await startLineWalkService(python, apiKey);
      }, 30_000);
      afterAll(async () => {
        await running?.stop();
      });
    },
    get service() {
      if (running === undefined) throw new Error('expected the line-walk service to be running: call startAroundSuite() inside the describe block');
      return running;
    },
  };
}
