import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SandboxLimitError } from './sandbox-limit-error';
import { SANDBOX_PRELUDE } from './sandbox-prelude';
import { SANDBOX_WORKER_SOURCE } from './sandbox-worker-source';

/** The limits of every call in a {@link PythonSandbox}. */
export interface PythonSandboxLimits {
  /** Wall-clock time of one call; past it the interpreter's thread is ended. */
  timeLimitMs: number;
  /** The interpreter's wasm memory (Python's heap, the scratch folder, the images); past it Python raises MemoryError. */
  memoryLimitMb: number;
  /** Bytes a call may print to stdout and stderr together; past it the call is stopped. */
  maxOutputBytes: number;
  /** JavaScript heap of the interpreter's thread (Pyodide's own objects); past it the thread is ended. */
  heapLimitMb: number;
  /** Interpreters running calls at once (each is a worker thread with its own memory). */
  concurrency: number;
}

/** A file the call finds in its scratch folder (the working directory). */
export interface SandboxFile {
  /** Relative to the scratch folder, e.g. `image.png`. */
  path: string;
  data: Uint8Array;
}

/** An image as the code sees it: its size, its pixels (RGB, row by row) and the file it was written to. */
export interface SandboxImage {
  width: number;
  height: number;
  rgb: Uint8Array;
  /** Its file in the scratch folder. */
  path: string;
}

/** One call: the code, its standard input, the files and images it may read. */
export interface PythonCall {
  code: string;
  stdin?: string;
  files?: SandboxFile[];
  images?: SandboxImage[];
  /** Run verl-tool's pre-imports first (`from math import *`, …). Default true. */
  preImport?: boolean;
}

/** What a call printed and how it ended (an uncaught exception's traceback is in stderr, as python3 prints it). */
export interface PythonRunResult {
  stdout: string;
  stderr: string;
  /** 0, or 1 after an uncaught exception, or the code's `sys.exit` status. */
  exitCode: number;
  /** The uncaught exception's type, e.g. `ZeroDivisionError`. */
  errorType?: string;
  durationMs: number;
}

interface WorkerReply {
  type: 'ready' | 'result' | 'fatal' | 'start-failed';
  message?: string;
  exitCode?: number;
  errorType?: string | null;
  stdout?: string;
  stderr?: string;
  outputExceeded?: boolean;
  memoryBytes?: number;
}

interface Job {
  call: PythonCall;
  resolve: (result: PythonRunResult) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  started?: number;
}

interface Interpreter {
  worker: Worker;
  ready: Promise<void>;
  job?: Job;
  timer?: ReturnType<typeof setTimeout>;
  /** Set when the thread is being ended: its exit is expected. */
  ending?: boolean;
  /** What the last call left the wasm memory at; an interpreter near its limit is replaced. */
  memoryBytes: number;
}

const STARTUP_LIMIT_MS = 60_000;
const MB = 1024 * 1024;

function pyodideLocation(): { url: string; file: string; indexUrl: string } {
  const require = createRequire(import.meta.url);
  const packageFile = require.resolve('pyodide/package.json');
  const file = join(dirname(packageFile), 'pyodide.mjs');
  return { url: pathToFileURL(file).href, file, indexUrl: `${dirname(packageFile)}/` };
}

/**
 * CPython compiled to WebAssembly (Pyodide), run in worker threads: each call gets a fresh namespace
 * and scratch folder, a wall-clock limit (past it the thread is ended, so an endless loop in C code
 * stops too), a memory limit on the interpreter's wasm memory, an output limit, and neither network
 * nor host files (see the worker source for what is taken from Pyodide). A call that breaks a
 * limit rejects with {@link SandboxLimitError}; the interpreter is replaced and the next call gets a
 * fresh one. Interpreters start on the first call (about 2 s) and are then reused; idle, they do not
 * keep Node running.
 */
export class PythonSandbox {
  readonly limits: PythonSandboxLimits;
  readonly #queue: Job[] = [];
  readonly #interpreters = new Set<Interpreter>();
  #closed = false;

  constructor(limits: PythonSandboxLimits) {
    this.limits = limits;
  }

  /** Starts the interpreters now rather than on the first call. */
  async warm(): Promise<void> {
    while (this.#interpreters.size < this.limits.concurrency) this.#start();
    await Promise.all([...this.#interpreters].map((interpreter) => interpreter.ready.catch(() => undefined)));
    for (const interpreter of this.#interpreters) if (interpreter.job === undefined) interpreter.worker.unref();
  }

  run(call: PythonCall, signal?: AbortSignal): Promise<PythonRunResult> {
    return new Promise<PythonRunResult>((resolve, reject) => {
      if (this.#closed) return reject(new Error('the Python sandbox was closed'));
      if (signal?.aborted) return reject(abortReason(signal));
      const job: Job = { call, resolve, reject, signal };
      job.onAbort = () => this.#abort(job);
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Ends every interpreter; queued and running calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const failure = new Error('the Python sandbox was closed');
    for (const job of this.#queue.splice(0)) this.#settle(job, failure);
    await Promise.all([...this.#interpreters].map((interpreter) => this.#end(interpreter, failure)));
  }

  /** Reopens a closed sandbox (the next call starts an interpreter). */
  reopen(): void {
    this.#closed = false;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let free = [...this.#interpreters].find((interpreter) => interpreter.job === undefined && !interpreter.ending);
      if (free === undefined && this.#interpreters.size < this.limits.concurrency) free = this.#start();
      if (free === undefined) return;
      const job = this.#queue.shift()!;
      this.#assign(free, job);
    }
  }

  #start(): Interpreter {
    const pyodide = pyodideLocation();
    const worker = new Worker(SANDBOX_WORKER_SOURCE, {
      eval: true,
      env: {},
      stdout: true,
      stderr: true,
      stdin: false,
      workerData: {
        pyodideUrl: pyodide.url,
        pyodideFile: pyodide.file,
        pyodideIndexUrl: pyodide.indexUrl,
        memoryLimitBytes: this.limits.memoryLimitMb * MB,
        maxOutputBytes: this.limits.maxOutputBytes,
        prelude: SANDBOX_PRELUDE,
      },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapLimitMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    // The thread's own stdout/stderr (Pyodide's start-up chatter) are read and dropped, never shown.
    worker.stdout.resume();
    worker.stderr.resume();
    let markReady!: () => void;
    let failStart!: (error: Error) => void;
    const interpreter: Interpreter = { worker, ready: new Promise<void>((resolve, reject) => ((markReady = resolve), (failStart = reject))), memoryBytes: 0 };
    interpreter.ready.catch(() => undefined);
    const startTimer = setTimeout(() => failStart(new Error(`the Python interpreter did not start within ${STARTUP_LIMIT_MS} ms`)), STARTUP_LIMIT_MS);
    startTimer.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') {
        clearTimeout(startTimer);
        interpreter.memoryBytes = reply.memoryBytes ?? 0;
        markReady();
        if (interpreter.job !== undefined) this.#send(interpreter, interpreter.job);
        return;
      }
      if (reply.type === 'start-failed') {
        clearTimeout(startTimer);
        failStart(new Error(`the Python interpreter could not start: ${reply.message ?? 'unknown error'}`));
        return;
      }
      this.#finish(interpreter, reply);
    });
    worker.on('error', (error) => {
      clearTimeout(startTimer);
      failStart(error);
      this.#crashed(interpreter, error);
    });
    worker.on('exit', (code) => {
      clearTimeout(startTimer);
      failStart(new Error(`the Python interpreter's thread ended (exit code ${code}) while starting`));
      this.#crashed(interpreter, new Error(`exit code ${code}`));
    });
    interpreter.ready.then(
      () => undefined,
      (error: Error) => {
        // A failed start fails the call that waited for it.
        const job = interpreter.job;
        if (job !== undefined) {
          interpreter.job = undefined;
          this.#settle(job, error);
        }
        void this.#end(interpreter);
        this.#pump();
      },
    );
    this.#interpreters.add(interpreter);
    return interpreter;
  }

  #assign(interpreter: Interpreter, job: Job): void {
    interpreter.job = job;
    interpreter.worker.ref();
    void interpreter.ready.then(() => {
      if (interpreter.job === job && job.started === undefined) this.#send(interpreter, job);
    }, () => undefined);
  }

  #send(interpreter: Interpreter, job: Job): void {
    if (job.started !== undefined) return;
    job.started = performance.now();
    interpreter.timer = setTimeout(() => {
      void this.#stop(interpreter, new SandboxLimitError({ limit: 'time', message: `the code did not finish within ${this.limits.timeLimitMs} ms and was stopped` }));
    }, this.limits.timeLimitMs);
    const { call } = job;
    interpreter.worker.postMessage({
      code: call.code,
      stdin: call.stdin ?? '',
      files: call.files ?? [],
      images: call.images ?? [],
      preImport: call.preImport ?? true,
    });
  }

  #finish(interpreter: Interpreter, reply: WorkerReply): void {
    const job = interpreter.job;
    clearTimeout(interpreter.timer);
    interpreter.job = undefined;
    interpreter.memoryBytes = reply.memoryBytes ?? interpreter.memoryBytes;
    if (job === undefined) return;
    const stdout = reply.stdout ?? '';
    const stderr = reply.stderr ?? '';
    const limitBytes = this.limits.memoryLimitMb * MB;
    if (reply.outputExceeded === true) {
      // The runner put the interpreter back in its finally block: it stays in use.
      if (this.#queue.length === 0) interpreter.worker.unref();
      this.#settle(job, new SandboxLimitError({ limit: 'output', message: `the code printed more than ${this.limits.maxOutputBytes} bytes and was stopped`, stdout, stderr }));
    } else if (reply.type === 'fatal') {
      void this.#end(interpreter);
      const stack = /call stack|stack overflow|recursion/i.test(reply.message ?? '');
      this.#settle(
        job,
        stack
          ? new SandboxLimitError({ limit: 'stack', message: "the code recursed deeper than the interpreter's stack allows and was stopped", stdout, stderr })
          : new SandboxLimitError({ limit: 'crash', message: `the Python interpreter failed (${reply.message ?? 'unknown error'}) and was restarted`, stdout, stderr }),
      );
    } else if (reply.errorType === 'MemoryError') {
      // Wasm memory never shrinks: an interpreter grown near its limit is replaced (below), others stay.
      if (interpreter.memoryBytes > limitBytes * 0.75) void this.#end(interpreter);
      else if (this.#queue.length === 0) interpreter.worker.unref();
      this.#settle(job, new SandboxLimitError({ limit: 'memory', message: `the code needed more than the sandbox's ${this.limits.memoryLimitMb} MB of memory and was stopped`, stdout, stderr }));
    } else {
      if (interpreter.memoryBytes > limitBytes * 0.75) void this.#end(interpreter);
      else if (this.#queue.length === 0) interpreter.worker.unref();
      this.#settle(job, undefined, { stdout, stderr, exitCode: reply.exitCode ?? 0, ...(reply.errorType ? { errorType: reply.errorType } : {}), durationMs: Math.round((performance.now() - (job.started ?? performance.now())) * 10) / 10 });
    }
    this.#pump();
  }

  #crashed(interpreter: Interpreter, error: Error): void {
    if (!this.#interpreters.has(interpreter)) return;
    this.#interpreters.delete(interpreter);
    clearTimeout(interpreter.timer);
    const job = interpreter.job;
    interpreter.job = undefined;
    if (job !== undefined && !interpreter.ending) {
      const code = (error as { code?: string }).code;
      this.#settle(
        job,
        code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new SandboxLimitError({ limit: 'memory', message: `the code needed more than the sandbox's ${this.limits.heapLimitMb} MB of JavaScript heap and was stopped`, cause: error })
          : new SandboxLimitError({ limit: 'crash', message: `the Python interpreter's thread ended (${error.message}) and was restarted`, cause: error }),
      );
    }
    this.#pump();
  }

  /** Ends the interpreter running `job`'s call and fails the call with `error`. */
  async #stop(interpreter: Interpreter, error: Error): Promise<void> {
    const job = interpreter.job;
    interpreter.job = undefined;
    if (job !== undefined) this.#settle(job, error);
    await this.#end(interpreter);
    this.#pump();
  }

  async #end(interpreter: Interpreter, failure?: Error): Promise<void> {
    interpreter.ending = true;
    this.#interpreters.delete(interpreter);
    clearTimeout(interpreter.timer);
    const job = interpreter.job;
    interpreter.job = undefined;
    if (job !== undefined) this.#settle(job, failure ?? new Error('the Python interpreter was ended'));
    await interpreter.worker.terminate().catch(() => undefined);
  }

  #abort(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued !== -1) {
      this.#queue.splice(queued, 1);
      this.#settle(job, abortReason(job.signal!));
      return;
    }
    const interpreter = [...this.#interpreters].find((candidate) => candidate.job === job);
    if (interpreter !== undefined) void this.#stop(interpreter, abortReason(job.signal!));
  }

  #settle(job: Job, error: Error | undefined, result?: PythonRunResult): void {
    if (job.onAbort !== undefined) job.signal?.removeEventListener('abort', job.onAbort);
    job.onAbort = undefined;
    if (error !== undefined) job.reject(error);
    else job.resolve(result!);
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}

