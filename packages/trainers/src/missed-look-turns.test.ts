import { storedTrajectory, storedTurn } from '@saccade/core/testing';
import { expect, test } from 'vitest';
import { missedLookTurns } from './missed-look-turns';

test('the turns whose scored looks all missed: not a turn with one hit among its calls, an unscored call, or a turn without calls', () => {
  const calls = (...hits: (boolean | undefined)[]) => ({ toolCalls: hits.map((hit) => ({ name: 'crop', ok: true, ...(hit === undefined ? {} : { hit }) })) });
  const turns = [storedTurn(calls(false)), storedTurn(calls(false, false)), storedTurn(calls(false, true)), storedTurn(calls(undefined)), storedTurn(calls(true)), storedTurn({})];
  expect([...missedLookTurns(storedTrajectory(turns, 1))]).toEqual([0, 1]);
  expect([...missedLookTurns(storedTrajectory([storedTurn({ toolCalls: [] }), storedTurn({})], 0))]).toEqual([]);
});
