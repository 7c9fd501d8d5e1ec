import { createRequire } from 'node:module';
import path from 'node:path';
import { tf } from './tf.js';
import { kernelsTurnedOff, registerWasmKernels } from './register-wasm-kernels.js';
import { TensorBackendError, type BackendAttempt, type BackendName } from './tensor-backend-error.js';

/**
 * The backend initTensor settled on and why, with the wasm build's features and every backend it
 * tried: what a run logs so its speed can be explained.
 */
export interface BackendInfo {
  /** The tfjs backend in use: 'tensorflow' (tfjs-node / tfjs-node-gpu), 'wasm' or 'cpu'. */
  name: BackendName;
  /** Why it was chosen, in words. */
  reason: string;
  /** The package that provides it. */
  package: string;
  simd: boolean;
  threads: number;
  /** Whether Saccade's wasm kernel fixes are registered. */
  kernelFixes: boolean;
  /** Every candidate tried, in order, with the error of those that failed. */
  candidates: BackendAttempt[];
}

/** Which backend initTensor loads, and whether it adds Saccade's wasm kernel fixes. */
export interface InitTensorOptions {
  /** Force one backend; otherwise `SACCADE_BACKEND`, otherwise the best that loads. */
  backend?: BackendName;
  /** Register the wasm kernel fixes (default true; false only to measure the stock kernels). */
  kernelFixes?: boolean;
}

const backendNames: readonly BackendName[] = ['tensorflow', 'wasm', 'cpu'];
const requireFromHere = createRequire(import.meta.url);

let pending: Promise<typeof tf> | undefined;
let info: BackendInfo | undefined;

/**
 * Loads the best backend once per process: tfjs-node-gpu, tfjs-node, wasm, cpu. Concurrent and
 * repeated calls share one promise; options only count on the first call.
 */
export function initTensor(options: InitTensorOptions = {}): Promise<typeof tf> {
  pending ??= load(options).catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/** The initialised tf namespace (initialising with the defaults if nothing has yet). */
export function getTf(): Promise<typeof tf> {
  return initTensor();
}

/** What `initTensor` chose and why; undefined before it finished. */
export function backendInfo(): BackendInfo | undefined {
  return info;
}

function forcedBackend(options: InitTensorOptions): BackendName | undefined {
  const requested = options.backend ?? process.env['SACCADE_BACKEND']?.trim();
  if (requested === undefined || requested === '') return undefined;
  if (!(backendNames as readonly string[]).includes(requested)) {
    throw new TensorBackendError(
      `SACCADE_BACKEND must be one of ${backendNames.join(', ')}; got '${requested}'.`,
      [],
    );
  }
  return requested as BackendName;
}

async function load(options: InitTensorOptions): Promise<typeof tf> {
  const forced = forcedBackend(options);
  try {
    // Checked first: failing inside the wasm attempt would fall back to cpu, 50–100× slower.
    kernelsTurnedOff();
  } catch (error) {
    throw new TensorBackendError(error instanceof Error ? error.message : String(error), []);
  }
  const order = forced ? [forced] : backendNames;
  const candidates: BackendAttempt[] = [];
  for (const name of order) {
    try {
      const loaded = await loaders[name]();
      const kernelFixes = name === 'wasm' && options.kernelFixes !== false;
      if (kernelFixes) registerWasmKernels();
      const reason = forced
        ? `forced by ${options.backend ? 'initTensor({backend})' : 'SACCADE_BACKEND'}`
        : candidates.length === 0
          ? 'first choice'
          : `best that loaded (${candidates.map((c) => c.name).join(', ')} failed)`;
      candidates.push({ name, ok: true });
      info = { name, reason, kernelFixes, candidates, ...loaded };
      return tf;
    } catch (error) {
      candidates.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const tried = candidates.map((c) => `${c.name}: ${c.error}`).join('; ');
  throw new TensorBackendError(
    forced
      ? `The forced backend '${forced}' could not load (${tried}).`
      : `No TensorFlow.js backend could load (${tried}).`,
    candidates,
  );
}

type Loaded = Pick<BackendInfo, 'package' | 'simd' | 'threads'>;

const loaders: Record<BackendName, () => Promise<Loaded>> = {
  async tensorflow() {
    // Native TensorFlow: the GPU build first, then the CPU build. Both register 'tensorflow'.
    const errors: string[] = [];
    for (const packageName of ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node']) {
      try {
        await import(/* @vite-ignore */ packageName);
        await activate('tensorflow');
        return { package: packageName, simd: false, threads: 0 };
      } catch (error) {
        errors.push(`${packageName}: ${firstLine(error)}`);
      }
    }
    throw new Error(errors.join(' | '));
  },
  async wasm() {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    // In Node the .wasm files sit beside the package's main file; resolving them from here keeps
    // working wherever @saccade/tensor is installed or bundled.
    const folder = path.dirname(requireFromHere.resolve('@tensorflow/tfjs-backend-wasm'));
    wasm.setWasmPaths(`${folder}${path.sep}`);
    await activate('wasm');
    const simd = Boolean(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'));
    return { package: '@tensorflow/tfjs-backend-wasm', simd, threads: wasm.getThreadsCount() };
  },
  async cpu() {
    await import('@tensorflow/tfjs-backend-cpu');
    await activate('cpu');
    return { package: '@tensorflow/tfjs-backend-cpu', simd: false, threads: 1 };
  },
};

async function activate(name: string): Promise<void> {
  if (!(await tf.setBackend(name))) throw new Error(`tf.setBackend('${name}') failed`);
  await tf.ready();
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
