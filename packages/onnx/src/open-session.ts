import * as ort from 'onnxruntime-node';

/**
 * An onnxruntime session on the CPU from a model's bytes; `source` names the model in errors.
 * `threads` is onnxruntime's intra-op thread count; spinning is off, so idle threads leave the
 * CPU to the rest of the process (the env's and the agent's work between runs).
 */
export async function openSession(model: Uint8Array, source: string, threads = 1): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(model, { executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1, extra: { session: { intra_op: { allow_spinning: '0' } } } });
  } catch (error) {
    throw new Error(`expected an ONNX model at ${source}, could not load it: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
