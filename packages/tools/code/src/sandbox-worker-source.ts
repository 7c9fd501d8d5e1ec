/**
 * The source of the sandbox's worker thread (CommonJS, run with `eval: true` so that it needs no
 * build step and no file beside the bundle). It loads Pyodide once, takes away what Python could
 * reach outside the sandbox through Pyodide's JavaScript bridge, and then runs one call at a time.
 *
 * What is taken away, and why (each is a way out that Pyodide offers in Node):
 * - the JavaScript globals that reach the network (`fetch`, `WebSocket`, …) and the `ws` package
 *   Emscripten's socket layer loads with `require`: Python's `socket` and `pyodide.http` use them;
 * - Pyodide's API calls that mount host folders or load packages (`mountNodeFS`, `loadPackage`, …)
 *   and the file systems behind them (`NODEFS`, …);
 * - code made from strings (`eval`, the `Function` constructors): any JavaScript object Python holds
 *   leads to them through `.constructor`, and from there to everything the thread can do;
 * - `process` but for the few fields Emscripten reads (no `binding`, `kill`, `dlopen`, `env`).
 * The wasm memory may not grow past the call's memory limit: Emscripten's allocator then fails and
 * Python raises MemoryError.
 */
export const SANDBOX_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');

const settings = workerData;
const wasmPage = 65536;
let memoryLimitBytes = settings.memoryLimitBytes;
const originalGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function grow(pages) {
  if (this.buffer.byteLength + pages * wasmPage > memoryLimitBytes) throw new RangeError('the sandbox memory limit is reached');
  return originalGrow.call(this, pages);
};

// Emscripten's socket layer opens WebSockets through require('ws'): answer that require with a refusal.
function NoNetwork() { throw new Error('network access is disabled in the sandbox'); }
NoNetwork.Server = NoNetwork;
try {
  const requireFromPyodide = createRequire(settings.pyodideFile);
  const wsPath = requireFromPyodide.resolve('ws');
  requireFromPyodide.cache[wsPath] = { id: wsPath, filename: wsPath, loaded: true, exports: NoNetwork, children: [], paths: [] };
} catch (error) {
  // No ws installed: Emscripten cannot open sockets at all.
}

let output = { stdout: [], stderr: [], bytes: 0, exceeded: false };
function writer(stream) {
  return {
    isatty: false,
    write(buffer) {
      if (output.exceeded) throw new Error('output limit reached');
      output.bytes += buffer.length;
      if (output.bytes > settings.maxOutputBytes) {
        output.exceeded = true;
        throw new Error('output limit reached');
      }
      output[stream].push(Buffer.from(buffer));
      return buffer.length;
    },
  };
}

function harden(pyodide) {
  // The Function constructors stay objects (Pyodide tests values with instanceof Function) that refuse to make code.
  const refuse = function () { throw new EvalError('making code from strings is disabled in the sandbox'); };
  const functionPrototypes = [Function.prototype, Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async function* () {})];
  for (const prototype of functionPrototypes) {
    const guarded = new Proxy(prototype.constructor, { apply: refuse, construct: refuse });
    Object.defineProperty(prototype, 'constructor', { value: guarded, configurable: false, writable: false });
    if (prototype === Function.prototype) Object.defineProperty(globalThis, 'Function', { value: guarded, configurable: false, writable: false });
  }
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'Headers', 'FormData', 'BroadcastChannel', 'eval', 'require', 'module', 'exports', 'importScripts']) {
    try { delete globalThis[name]; } catch (error) {}
    if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false });
  }
  const real = globalThis.process;
  const stub = {
    argv: [], env: {}, platform: real.platform, version: real.version, versions: real.versions, browser: undefined, exitCode: undefined,
    getuid: () => 0, umask: () => 18, hrtime: real.hrtime.bind(real), nextTick: real.nextTick.bind(real), cwd: () => '/',
    stdout: { write() { return true; } }, stderr: { write() { return true; } }, stdin: { fd: 0 },
  };
  stub.hrtime.bigint = real.hrtime.bigint.bind(real);
  Object.defineProperty(globalThis, 'process', { value: Object.freeze(stub), configurable: false, writable: false });
  const api = pyodide;
  const prototype = Object.getPrototypeOf(api);
  for (const name of ['mountNodeFS', 'mountNativeFS', 'useNodeSockFS', 'loadPackage', 'loadPackagesFromImports', 'registerComlink', 'unpackArchive', 'setStdin', 'setStdout', 'setStderr', 'setInterruptBuffer', '_module', '_api']) {
    for (const holder of [api, prototype, api.constructor]) {
      if (holder === null || holder === undefined) continue;
      try { delete holder[name]; } catch (error) {}
      try { if (name in holder) Object.defineProperty(holder, name, { value: undefined, configurable: false, writable: false }); } catch (error) {}
    }
  }
}

async function main() {
  const { loadPyodide } = await import(settings.pyodideUrl);
  const pyodide = await loadPyodide({
    indexURL: settings.pyodideIndexUrl,
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide', PYTHONHASHSEED: '0' },
    stdout: (text) => undefined,
    stderr: (text) => undefined,
  });
  pyodide.setStdout(writer('stdout'));
  pyodide.setStderr(writer('stderr'));
  let stdin = '';
  pyodide.setStdin({ stdin: () => { const text = stdin; stdin = ''; return text.length > 0 ? text : null; }, autoEOF: true });
  const FS = pyodide.FS;
  for (const name of Object.keys(FS.filesystems)) if (name !== 'MEMFS') delete FS.filesystems[name];
  const module = pyodide._module;
  for (const name of ['NODEFS', 'NODERAWFS', 'WORKERFS', 'PROXYFS', 'IDBFS', 'NATIVEFS_ASYNC']) { try { delete module[name]; } catch (error) {} }
  pyodide.runPython(settings.prelude);
  const runCall = pyodide.globals.get('_saccade_run_call');
  const heap = () => module.HEAPU8.buffer.byteLength;
  harden(pyodide);
  const baseline = heap();
  parentPort.postMessage({ type: 'ready', memoryBytes: baseline });

  parentPort.on('message', (call) => {
    output = { stdout: [], stderr: [], bytes: 0, exceeded: false };
    stdin = call.stdin || '';
    let reply;
    try {
      const files = call.files.map((file) => [file.path, file.data]);
      const images = call.images.map((image) => [image.width, image.height, image.rgb, image.path]);
      const outcome = runCall(call.code, files, images, call.preImport);
      const [exitCode, errorType] = outcome.toJs();
      outcome.destroy();
      reply = { type: 'result', exitCode, errorType, stdout: Buffer.concat(output.stdout).toString('utf8'), stderr: Buffer.concat(output.stderr).toString('utf8'), outputExceeded: output.exceeded, memoryBytes: heap() };
    } catch (error) {
      // Pyodide's own failures (a wasm stack overflow, a fatal error): this interpreter is done.
      reply = { type: 'fatal', message: String(error && error.message || error).split('\n')[0], stdout: Buffer.concat(output.stdout).toString('utf8'), stderr: Buffer.concat(output.stderr).toString('utf8'), outputExceeded: output.exceeded, memoryBytes: heap() };
    }
    parentPort.postMessage(reply);
  });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'start-failed', message: String(error && error.message || error).split('\n')[0] });
});
`;
