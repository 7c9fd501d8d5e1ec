import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { ConformanceError } from './conformance-error';
import { EnvAlreadyRegisteredError } from './env-already-registered-error';
import { EnvNotFoundError } from './env-not-found-error';
import { FileFormatError } from './file-format-error';
import { InvalidActionError } from './invalid-action-error';
import { InvalidArgumentError } from './invalid-argument-error';
import { InvalidStateError } from './invalid-state-error';
import { SaccadeError } from './saccade-error';
import { TimeoutError } from './timeout-error';
import { ToolExecutionError } from './tool-execution-error';
import { TrajectoryFileError } from './trajectory-file-error';

describe('isInstance', () => {
  test('recognises its own class and the base, not siblings', () => {
    const error = new InvalidActionError({ action: 'Jump', expected: 'one of Left, Down, Right, Up' });
    expect(InvalidActionError.isInstance(error)).toBe(true);
    expect(SaccadeError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(false);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('Saccade_InvalidActionError');
  });

  test('rejects non-errors and plain errors', () => {
    for (const value of [null, undefined, 0, 'x', {}, new Error('x'), { name: 'Saccade_InvalidActionError' }]) {
      expect(SaccadeError.isInstance(value)).toBe(false);
      expect(InvalidActionError.isInstance(value)).toBe(false);
    }
  });

  test('works across realms and package copies (marker based, not instanceof)', () => {
    // An object made in another realm that carries the registered symbols, as a second copy of
    // @saccade/spec would make it: Symbol.for is shared by all realms.
    const foreign = runInNewContext(
      `const e = new Error('boom'); e[Symbol.for('saccade.error')] = true; e[Symbol.for('saccade.error.env-not-found')] = true; e`,
    ) as unknown;
    expect(foreign instanceof Error).toBe(false);
    expect(SaccadeError.isInstance(foreign)).toBe(true);
    expect(EnvNotFoundError.isInstance(foreign)).toBe(true);
    expect(EnvAlreadyRegisteredError.isInstance(foreign)).toBe(false);
  });
});

describe('messages say what was expected and what came', () => {
  test('InvalidArgumentError', () => {
    const error = new InvalidArgumentError({ argument: 'id', expected: 'an id like "ns/Name-v1"', value: 'frozenlake' });
    expect(error.message).toBe('Invalid argument id: expected an id like "ns/Name-v1", received "frozenlake".');
    expect(error.argument).toBe('id');
    expect(error.value).toBe('frozenlake');
  });

  test('long values are cut short', () => {
    const error = new InvalidActionError({ action: 'x'.repeat(100_000), expected: 'an action' });
    expect(error.message.length).toBeLessThan(200);
    expect(error.message).toContain('(100000 chars)');
  });

  test('EnvNotFoundError lists suggestions and known ids', () => {
    const error = new EnvNotFoundError({
      id: 'saccade/FrozenLak-v1',
      knownIds: ['saccade/FrozenLake-v1', 'saccade/Sokoban-v1'],
      suggestions: ['saccade/FrozenLake-v1'],
    });
    expect(error.message).toBe(
      'No env is registered with id "saccade/FrozenLak-v1". Did you mean "saccade/FrozenLake-v1"? Registered ids: saccade/FrozenLake-v1, saccade/Sokoban-v1.',
    );
    expect(new EnvNotFoundError({ id: 'a/B-v1', knownIds: [] }).message).toContain('No env is registered:');
  });

  test('FileFormatError names the place, the field, what was expected and what came', () => {
    const error = new FileFormatError({ file: 'tasks.jsonl', line: 3, field: 'answerType', expected: 'one of number | yes-no', received: '"essay"' });
    expect(error.message).toBe('tasks.jsonl:3: field "answerType": expected one of number | yes-no, received "essay"');
    expect(error).toMatchObject({ name: 'Saccade_FileFormatError', file: 'tasks.jsonl', line: 3, field: 'answerType' });
    expect(new FileFormatError({ file: 'tree.json', field: 'root', expected: 'an object', received: 'null' }).message).toBe('tree.json: field "root": expected an object, received null');
    const located = new FileFormatError({ file: 'test.json', where: 'test.json record 2', field: 'label', expected: 'a string', received: '3' });
    expect(located.message).toBe('test.json record 2: field "label": expected a string, received 3');
    expect([FileFormatError.isInstance(located), SaccadeError.isInstance(located), InvalidArgumentError.isInstance(located)]).toEqual([true, true, false]);
  });

  test('TrajectoryFileError names the file, the line and the reason', () => {
    const error = new TrajectoryFileError({ source: 'runs/a/trajectories/x.jsonl', line: 3, reason: 'turns: expected array, received undefined' });
    expect(error.message).toBe('runs/a/trajectories/x.jsonl:3: not a trajectory: turns: expected array, received undefined');
    expect(error).toMatchObject({ name: 'Saccade_TrajectoryFileError', source: 'runs/a/trajectories/x.jsonl', line: 3 });
    expect([TrajectoryFileError.isInstance(error), SaccadeError.isInstance(error), FileFormatError.isInstance(error)]).toEqual([true, true, false]);
  });

  test('EnvAlreadyRegisteredError', () => {
    expect(new EnvAlreadyRegisteredError({ id: 'a/B-v1' }).message).toContain('{override: true}');
  });

  test('ConformanceError lists every failure', () => {
    const error = new ConformanceError({ subject: 'Env "a/B-v1"', failures: ['first', 'second'] });
    expect(error.message).toBe('Env "a/B-v1" failed 2 conformance checks:\n  - first\n  - second');
    expect(error.failures).toEqual(['first', 'second']);
  });

  test('InvalidStateError, ToolExecutionError, TimeoutError', () => {
    expect(
      new InvalidStateError({ operation: 'step()', expected: 'reset() to have been called', actual: 'the env was never reset' })
        .message,
    ).toBe('Cannot call step(): expected reset() to have been called, but the env was never reset.');
    const cause = new Error('division by zero');
    const toolError = new ToolExecutionError({ toolName: 'calculator', input: { expression: '1/0' }, cause });
    expect(toolError.message).toBe('Tool "calculator" failed: division by zero');
    expect(toolError.cause).toBe(cause);
    expect(new TimeoutError({ operation: 'agent.act()', timeoutMs: 500 }).message).toBe(
      'agent.act() did not finish within 500 ms.',
    );
  });
});
