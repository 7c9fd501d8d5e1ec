import { EnvAlreadyRegisteredError, EnvNotFoundError, InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { afterEach, describe, expect, test } from 'vitest';
import { GuessNumberEnv } from '../testing';
import type { EnvWrapper } from '../wrappers/env-wrapper';
import { OrderEnforcing } from '../wrappers/order-enforcing';
import { TimeLimit } from '../wrappers/time-limit';
import { envToolsConflict, getEnvSpec, listEnvs, makeEnv, registerEnv, unregisterEnv } from './env-registry';
import { suggestIds } from './suggest-ids';

const ids = ['test/GuessNumber-v1', 'test/GuessNumber-v2', 'other/Sokoban-v1'];
afterEach(() => {
  for (const id of ids) unregisterEnv(id);
});

describe('registerEnv', () => {
  test('registers, lists and returns specs', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv(), maxTurns: 3, description: 'Guess a number.' });
    registerEnv({ id: 'other/Sokoban-v1', create: () => new GuessNumberEnv() });
    expect(listEnvs()).toEqual(expect.arrayContaining(['other/Sokoban-v1', 'test/GuessNumber-v1']));
    expect(getEnvSpec('test/GuessNumber-v1')?.description).toBe('Guess a number.');
    expect(getEnvSpec('test/Nope-v1')).toBeUndefined();
  });

  test('ids must look like namespace/Name-vN', () => {
    for (const id of ['GuessNumber-v1', 'test/GuessNumber', 'test/GuessNumber-1', 'test/Guess Number-v1', '/X-v1', 'a/b/C-v1']) {
      expect(() => registerEnv({ id, create: () => new GuessNumberEnv() })).toThrow(
        `Invalid argument id: expected an id of the form "namespace/Name-vN", e.g. "saccade/FrozenLake-v1", received ${JSON.stringify(id)}.`,
      );
    }
    for (const id of ['test/GuessNumber-v2', 'ALE/Pong-v5', 'vista/VQA-ChartQA-v1']) {
      registerEnv({ id, create: () => new GuessNumberEnv() });
      unregisterEnv(id);
    }
    expect(() => registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv(), maxTurns: 0 })).toThrow(InvalidArgumentError);
  });

  test('duplicates throw unless override', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv() });
    expect(() => registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv() })).toThrow(EnvAlreadyRegisteredError);
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv(), description: 'new' }, { override: true });
    expect(getEnvSpec('test/GuessNumber-v1')?.description).toBe('new');
  });

  test('the registry is shared through globalThis', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv() });
    const shared = (globalThis as Record<symbol, unknown>)[Symbol.for('saccade.core.envRegistry')] as Map<string, unknown>;
    expect(shared.has('test/GuessNumber-v1')).toBe(true);
  });
});

describe('makeEnv', () => {
  test('merges default options and wraps with OrderEnforcing and TimeLimit', async () => {
    let received: Record<string, unknown> = {};
    registerEnv<{ size: number; hard: boolean }>({
      id: 'test/GuessNumber-v1',
      create: (options) => {
        received = options;
        return new GuessNumberEnv();
      },
      maxTurns: 2,
      defaultOptions: { size: 4, hard: false },
    });
    const env = makeEnv('test/GuessNumber-v1', { hard: true });
    expect(received).toEqual({ size: 4, hard: true });
    expect(env).toBeInstanceOf(TimeLimit);
    expect((env as TimeLimit).maxTurns).toBe(2);
    expect((env as EnvWrapper).env).toBeInstanceOf(OrderEnforcing);
    expect((env as EnvWrapper).unwrapped).toBeInstanceOf(GuessNumberEnv);
    expect(env.id).toBe('test/GuessNumber-v1');
    await expect(env.step('<answer>1</answer>')).rejects.toThrow(InvalidStateError);
    await env.reset({ seed: 1 });
    expect((await env.step('<answer>1</answer>')).truncated).toBe(false);
    const last = await env.step('<answer>2</answer>');
    expect(last.truncated).toBe(true);
    expect(last.info.truncatedBy).toBe('time-limit');
  });

  test('options may be typed with an interface', () => {
    interface GuessOptions {
      range: number;
    }
    let range = 0;
    registerEnv({
      id: 'test/GuessNumber-v2',
      create: (options: GuessOptions) => {
        range = options.range;
        return new GuessNumberEnv();
      },
      defaultOptions: { range: 20 },
    });
    makeEnv('test/GuessNumber-v2');
    expect(range).toBe(20);
  });

  test('settings turn wrappers off or change the limit', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv(), maxTurns: 2 });
    expect(makeEnv('test/GuessNumber-v1', {}, { maxTurns: null, orderEnforcing: false })).toBeInstanceOf(GuessNumberEnv);
    expect((makeEnv('test/GuessNumber-v1', {}, { maxTurns: 5 }) as TimeLimit).maxTurns).toBe(5);
  });

  test('unknown ids list close matches', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => new GuessNumberEnv() });
    registerEnv({ id: 'other/Sokoban-v1', create: () => new GuessNumberEnv() });
    const error = (() => {
      try {
        makeEnv('test/GuesNumber-v1');
      } catch (caught) {
        return caught;
      }
    })();
    expect(EnvNotFoundError.isInstance(error)).toBe(true);
    expect((error as EnvNotFoundError).suggestions).toEqual(['test/GuessNumber-v1']);
    expect((error as Error).message).toMatch(/^No env is registered with id "test\/GuesNumber-v1". Did you mean "test\/GuessNumber-v1"\? Registered ids: .*other\/Sokoban-v1/);
  });

  test('a factory that does not return an Env is reported', () => {
    registerEnv({ id: 'test/GuessNumber-v1', create: () => ({}) as GuessNumberEnv });
    expect(() => makeEnv('test/GuessNumber-v1')).toThrow("expected a factory that returns an Env with specificationVersion 'v1'");
  });
});

describe('envToolsConflict', () => {
  test("names the tools an env calls in its own loop (its spec's usesTools); other tools and other envs pass", () => {
    registerEnv({ id: 'test/OwnLoop-v1', create: () => new GuessNumberEnv(), usesTools: ['search_coordinate'] }, { override: true });
    try {
      expect(envToolsConflict('test/OwnLoop-v1', ['image_zoom_in_tool', 'search_coordinate'])).toBe(
        'tools: test/OwnLoop-v1 calls search_coordinate in its own tool loop; expected tools it does not call itself, received ["image_zoom_in_tool","search_coordinate"]. Drop search_coordinate from tools: the env runs it with its own options (for the grounded envs: seenSize, cells, crop, maxCrops).',
      );
      expect(envToolsConflict('test/OwnLoop-v1', ['image_zoom_in_tool'])).toBeUndefined();
      expect(envToolsConflict('test/Nowhere-v1', ['search_coordinate'])).toBeUndefined();
    } finally {
      unregisterEnv('test/OwnLoop-v1');
    }
  });
});

describe('suggestIds', () => {
  const known = ['saccade/FrozenLake-v1', 'saccade/FrozenLake-v2', 'saccade/Sokoban-v1', 'vista/ChartQA-v1'];
  test('typos, missing namespace, other versions', () => {
    expect(suggestIds('saccade/FrozenLak-v1', known)).toEqual(['saccade/FrozenLake-v1', 'saccade/FrozenLake-v2']);
    expect(suggestIds('FrozenLake-v1', known)).toEqual(['saccade/FrozenLake-v1', 'saccade/FrozenLake-v2']);
    expect(suggestIds('saccade/sokoban-v3', known)).toEqual(['saccade/Sokoban-v1']);
    expect(suggestIds('x/Unrelated-v1', known)).toEqual([]);
  });
});
