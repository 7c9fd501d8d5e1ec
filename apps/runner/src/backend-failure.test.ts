import { describe, expect, test } from 'vitest';
import { BackendFailureError, explainBackendFailure } from './backend-failure';

describe('explainBackendFailure', () => {
  test("a wasm heap failure becomes an error that names the likely cause, what to lower and how to go on", () => {
    // What the wasm heap throws (Node's WebAssembly.RuntimeError; the project's TS lib has no WebAssembly types).
    const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly;
    const heap = new RuntimeError('memory access out of bounds');
    const explained = explainBackendFailure(heap, 'runs/search');
    expect(explained).toBeInstanceOf(BackendFailureError);
    expect((explained as BackendFailureError).original).toBe(heap);
    expect((explained as Error).message).toBe(
      'the wasm backend failed mid-step (RuntimeError: memory access out of bounds), most often because its memory ran out: a step held more tokens than its heap fits. ' +
        'Lower what a step holds (grpo.promptsPerStep or grpo.groupSize, ppo.episodesPerStep, sft.batchSize) or the context (model.config.maxSequenceLength, historyWindow), ' +
        'then continue from the last checkpoint: saccade train --resume runs/search',
    );
    // An emscripten abort reaches JS as a RuntimeError named so, with its own message.
    const aborted = Object.assign(new Error('Aborted(). Build with -sASSERTIONS for more info.'), { name: 'RuntimeError' });
    expect(explainBackendFailure(aborted, 'runs/x')).toBeInstanceOf(BackendFailureError);
  });

  test('any other error passes through unchanged', () => {
    const config = new RangeError('sft.steps must be positive');
    expect(explainBackendFailure(config, 'runs/x')).toBe(config);
    const elsewhere = new Error('memory access out of bounds in a plugin written in JS');
    expect(explainBackendFailure(elsewhere, 'runs/x')).toBe(elsewhere);
    expect(explainBackendFailure('stopped', 'runs/x')).toBe('stopped');
  });
});
