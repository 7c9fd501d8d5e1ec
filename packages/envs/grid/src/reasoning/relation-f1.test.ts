import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/mulberry';
import { frozenLakeMapFromRows, generateFrozenLakeMap } from '../frozen-lake/frozen-lake-map';
import { generateSokobanLevel } from '../sokoban/generate-sokoban-level';
import { sokobanStateFromText } from '../sokoban/sokoban-rules';
import { describeState } from './describe-state';
import { extractRelations } from './extract-relations';
import { relationKey, relativeDirection, stateRelations } from './object-relations';
import { relationF1 } from './relation-f1';
import { frozenLakeSymbolicState, sokobanSymbolicState } from './symbolic-state';

const keys = (text: string, env: 'frozen-lake' | 'sokoban') => extractRelations(text, env).map(relationKey).sort();

describe('relations', () => {
  it('names directions from the reference', () => {
    expect(relativeDirection({ row: 2, col: 3 }, { row: 0, col: 0 })).toBe('down-right');
    expect(relativeDirection({ row: 0, col: 1 }, { row: 1, col: 1 })).toBe('up');
    expect(relativeDirection({ row: 1, col: 1 }, { row: 1, col: 1 })).toBe('same');
  });

  it('reads relations from free text', () => {
    expect(keys('The goal is below and to the right of the player, and there is a hole to the left.', 'frozen-lake')).toEqual([
      'goal down-right player',
      'hole left player',
    ]);
    expect(keys('The player is above the goal. Holes are to the left and right of the player.', 'frozen-lake')).toEqual([
      'goal down player',
      'hole left player',
      'hole right player',
    ]);
    expect(keys('I fell: the player is in a hole.', 'frozen-lake')).toEqual(['hole same player']);
    expect(keys('The box is on top of the target.', 'sokoban')).toEqual(['box same target']);
    expect(keys('The goal is at the bottom-right, so I should move down.', 'frozen-lake')).toEqual(['goal down-right player']);
    expect(keys('The box is left of the player. The target is below the box. The box is on the target', 'sokoban')).toEqual([
      'box left player',
      'box same target',
      'box up target',
    ]);
    expect(keys('I see nothing useful here.', 'sokoban')).toEqual([]);
  });

  it('scores a full true description 1, a wrong one 0, a partial one in between', () => {
    const state = frozenLakeSymbolicState({ map: frozenLakeMapFromRows(['SFFF', 'FHFH', 'FFFH', 'HFFG']), player: { row: 0, col: 0 } });
    expect(relationF1(describeState(state), state).f1).toBe(1);
    expect(relationF1('The goal is above and to the left of the player.', state).f1).toBe(0);
    const partial = relationF1('The goal is below and to the right of the player.', state);
    expect(partial.precision).toBe(1);
    expect(partial.recall).toBeCloseTo(1 / stateRelations(state).length);
    expect(relationF1('', state).f1).toBe(0);
  });

  it('round-trips describeState for generated levels', () => {
    for (let seed = 0; seed < 200; seed++) {
      const lake = generateFrozenLakeMap(mulberry32(seed));
      const lakeState = frozenLakeSymbolicState({ map: lake, player: lake.start });
      expect(relationF1(describeState(lakeState), lakeState).f1).toBe(1);
      const room = sokobanSymbolicState(generateSokobanLevel(mulberry32(seed), { boxes: 1 + (seed % 2), maxSolutionSteps: 12 }).state);
      expect(relationF1(describeState(room), room).f1).toBe(1);
    }
    const onTarget = sokobanSymbolicState(sokobanStateFromText(['#####', '#S_X#', '#___#', '#####']));
    expect(describeState(onTarget)).toContain('on a target');
    expect(relationF1(describeState(onTarget), onTarget).f1).toBe(1);
  });
});
