import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

/** Functions that reach outside arithmetic (define code, units or parsers) or allocate without bound. */
export const DISABLED_FUNCTIONS = ['import', 'createUnit', 'evaluate', 'parse', 'compile', 'simplify', 'derivative', 'resolve', 'reviver', 'replacer', 'rationalize', 'chain', 'help', 'config', 'ones', 'zeros', 'identity', 'range', 'resize', 'random', 'randomInt', 'pickRandom'];

// Runs in the child process (node -e, CommonJS): mathjs with everything but math disabled.
const CHILD_SOURCE = `
const workerData = JSON.parse(process.argv[1]);
const parentPort = { postMessage: (message) => process.send(message) };
const { create, all } = require(workerData.mathjs);
const math = create(all);
const evaluate = math.evaluate.bind(math);
const parse = math.parse.bind(math);
math.import(Object.fromEntries(workerData.disabled.map((name) => [name, () => { throw new Error('the function ' + name + ' is not available in the calculator'); }])), { override: true });
process.on('message', ({ id, expression, precision, maxResultLength }) => {
  let tree;
  try {
    tree = parse(expression);
  } catch (error) {
    return parentPort.postMessage({ id, error: 'could not parse ' + JSON.stringify(expression) + ': ' + error.message });
  }
  try {
    const forbidden = tree.filter((node) => node.type === 'AssignmentNode' || node.type === 'FunctionAssignmentNode');
    if (forbidden.length > 0) throw new Error('expected an expression, received an assignment (' + forbidden[0].toString() + '); write the value directly');
    const value = evaluate(expression, {});
    if (typeof value === 'function') throw new Error('expected a value, received a function');
    if (value === undefined) throw new Error('expected an expression with a value, received ' + JSON.stringify(expression));
    const text = math.format(value, { precision });
    if (text.length > maxResultLength) throw new Error('expected a result of at most ' + maxResultLength + ' characters, received ' + text.length);
    parentPort.postMessage({ id, text });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
`;

export interface CalculatorLimits {
  /** Significant digits of the result. */
  precision: number;
  /** A call that computes longer is stopped (the process is ended and started again). */
  timeLimitMs: number;
  /** The process's heap limit; an expression that needs more is stopped. */
  memoryLimitMb: number;
  /** Longest result text. */
  maxResultLength: number;
}

interface Job {
  id: number;
  expression: string;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Reply {
  id?: number;
  ready?: boolean;
  text?: string;
  error?: string;
}

/**
 * One child process that evaluates expressions one at a time. A call past its time limit or aborted
 * by its signal kills the process (mathjs cannot be interrupted otherwise), and so does V8 when an
 * expression needs more than the heap limit (a fatal error there would end a worker thread's whole
 * process too); the next call starts a fresh one. Idle, the process does not keep Node alive.
 */
export class CalculatorProcess {
  readonly #limits: CalculatorLimits;
  readonly #queue: Job[] = [];
  #child: ChildProcess | undefined;
  #running: Job | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ready = false;
  #nextId = 0;

  constructor(limits: CalculatorLimits) {
    this.#limits = limits;
  }

  evaluate(expression: string, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const job: Job = { id: this.#nextId++, expression, resolve, reject, signal };
      if (signal?.aborted) return reject(abortError(signal));
      job.onAbort = () => this.#abort(job);
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Ends the process; queued calls fail. */
  close(): void {
    const failure = new Error('the calculator was closed');
    for (const job of this.#queue.splice(0)) this.#settle(job, failure);
    if (this.#running !== undefined) this.#settle(this.#running, failure);
    this.#stopChild();
  }

  #pump(): void {
    if (this.#running !== undefined) return;
    const job = this.#queue.shift();
    if (job === undefined) {
      this.#child?.unref();
      this.#child?.channel?.unref();
      return;
    }
    this.#running = job;
    let child: ChildProcess;
    try {
      child = this.#startChild();
    } catch (error) {
      this.#settle(job, new Error(`could not start the calculator's process: ${(error as Error).message}`));
      return this.#pump();
    }
    child.ref();
    child.channel?.ref();
    if (this.#ready) this.#send(job, child);
    else {
      // Loading mathjs takes a second or two on a busy machine; that is not the expression's time.
      this.#timer = setTimeout(() => this.#fail(job, new Error(`the calculator's process did not start within ${STARTUP_LIMIT_MS} ms`)), STARTUP_LIMIT_MS);
    }
  }

  #send(job: Job, child: ChildProcess): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#fail(job, new Error(`the expression did not finish within ${this.#limits.timeLimitMs} ms and was stopped`));
    }, this.#limits.timeLimitMs);
    child.send({ id: job.id, expression: job.expression, precision: this.#limits.precision, maxResultLength: this.#limits.maxResultLength });
  }

  #startChild(): ChildProcess {
    if (this.#child !== undefined) return this.#child;
    const mathjs = createRequire(import.meta.url).resolve('mathjs');
    const child = spawn(process.execPath, [`--max-old-space-size=${this.#limits.memoryLimitMb}`, '-e', CHILD_SOURCE, JSON.stringify({ mathjs, disabled: DISABLED_FUNCTIONS })], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    // V8 explains a fatal error on stderr; the last of it tells out-of-memory from other crashes.
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
    (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
    child.on('message', (reply: Reply) => {
      const job = this.#running;
      if (reply.ready === true && this.#child === child) {
        this.#ready = true;
        if (job !== undefined) this.#send(job, child);
        return;
      }
      if (reply.id === undefined || job === undefined || reply.id !== job.id) return;
      if (reply.error !== undefined) this.#settle(job, new Error(reply.error));
      else this.#settle(job, undefined, reply.text ?? '');
      this.#pump();
    });
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      if (this.#child !== child) return;
      this.#child = undefined;
      const job = this.#running;
      if (job !== undefined) {
        const outOfMemory = /heap out of memory|invalid size error|allocation failed/i.test(stderr);
        this.#settle(
          job,
          new Error(
            outOfMemory
              ? `the expression needed more than the calculator's ${this.#limits.memoryLimitMb} MB of memory and was stopped`
              : `the calculator's process ended (${signal ?? `exit code ${code}`}) while computing the expression`,
          ),
        );
      }
      this.#pump();
    });
    this.#child = child;
    this.#ready = false;
    return child;
  }

  #abort(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued !== -1) {
      this.#queue.splice(queued, 1);
      this.#settle(job, abortError(job.signal!));
    } else if (this.#running === job) this.#fail(job, abortError(job.signal!));
  }

  /** Kills the running job's process and moves on. */
  #fail(job: Job, error: Error): void {
    if (this.#running !== job) return;
    this.#settle(job, error);
    this.#stopChild();
    this.#pump();
  }

  #settle(job: Job, error: Error | undefined, text = ''): void {
    if (this.#running === job) {
      this.#running = undefined;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (job.onAbort !== undefined) job.signal?.removeEventListener('abort', job.onAbort);
    if (error !== undefined) job.reject(error);
    else job.resolve(text);
  }

  #stopChild(): void {
    const child = this.#child;
    this.#child = undefined;
    child?.kill('SIGKILL');
  }
}

const STARTUP_LIMIT_MS = 60_000;

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}
