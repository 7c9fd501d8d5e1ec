/**
 * What a run says when the wasm backend itself fails mid-step. An emscripten abort ("Aborted()",
 * then "memory access out of bounds" or "unreachable" from whatever touches the heap next) almost
 * always means its memory ran out: a step held more tokens than the heap fits. The raw message
 * names neither the cause nor what to change, so the run names both, and how to go on.
 */
export class BackendFailureError extends Error {
  override readonly name = 'BackendFailureError';
  constructor(
    message: string,
    readonly original: unknown,
  ) {
    super(message);
  }
}

const WASM_FAILURE = /memory access out of bounds|^Aborted\(|unreachable|out of memory|could not allocate memory|Cannot allocate Wasm memory/i;

/** A wasm backend failure as an error that says what to do; any other error unchanged. */
export function explainBackendFailure(error: unknown, runFolder: string): unknown {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  // WebAssembly.RuntimeError's name, or an error thrown from the wasm backend's own code.
  const isWasm = name === 'RuntimeError' || /wasm/i.test(String((error as Error | null)?.stack ?? ''));
  if (!isWasm || !WASM_FAILURE.test(message)) return error;
  return new BackendFailureError(
    `the wasm backend failed mid-step (${String(name ?? 'Error')}: ${message}), most often because its memory ran out: a step held more ` +
      `tokens than its heap fits. Lower what a step holds (grpo.promptsPerStep or grpo.groupSize, ppo.episodesPerStep, sft.batchSize) ` +
      `or the context (model.config.maxSequenceLength, historyWindow), then continue from the last checkpoint: saccade train --resume ${runFolder}`,
    error,
  );
}
