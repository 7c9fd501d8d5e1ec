const marker = Symbol.for('saccade.error.TensorBackendError');

/** One attempt at loading a backend, as `backendInfo()` and errors report it. */
export interface BackendAttempt {
  name: BackendName;
  ok: boolean;
  error?: string;
}

/**
 * A TensorFlow.js backend Saccade can run on: 'tensorflow' (native tfjs-node), 'wasm' or 'cpu'
 * (pure JS, slowest).
 */
export type BackendName = 'tensorflow' | 'wasm' | 'cpu';

/** No backend (or not the forced one) could be loaded. */
export class TensorBackendError extends Error {
  readonly [marker] = true;
  override readonly name = 'Saccade_TensorBackendError';
  readonly attempts: BackendAttempt[];

  constructor(message: string, attempts: BackendAttempt[]) {
    super(message);
    this.attempts = attempts;
  }

  static isInstance(value: unknown): value is TensorBackendError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
