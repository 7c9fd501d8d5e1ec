import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/mulberry';
import { generateSokobanLevel } from './generate-sokoban-level';
import { isSokobanSolved, moveSokoban, sokobanStateFromText, sokobanText } from './sokoban-rules';
import { solveSokoban } from './solve-sokoban';

const LEVEL = ['######', '#____#', '#_XO_#', '#_P__#', '#____#', '######'].join('\n');

describe('Sokoban rules', () => {
  it('reads and writes the text symbols', () => {
    expect(sokobanText(sokobanStateFromText(LEVEL))).toBe(LEVEL);
  });

  it('pushes a box onto a target and off it, and stops at walls and double boxes', () => {
    let state = sokobanStateFromText(LEVEL);
    expect(moveSokoban(state, 'Left')).toMatchObject({ moved: true, boxesOnTargetChange: 0 });
    state = moveSokoban(state, 'Left').state; // player (3,1)
    state = moveSokoban(state, 'Up').state; // player (2,1), box at (2,2)
    const on = moveSokoban(state, 'Right');
    expect(on).toMatchObject({ moved: true, boxesOnTargetChange: 1 });
    expect(isSokobanSolved(on.state)).toBe(true);
    expect(sokobanText(on.state).split('\n')[2]).toBe('#_P√_#');
    const off = moveSokoban(on.state, 'Right');
    expect(off).toMatchObject({ moved: true, boxesOnTargetChange: -1 });
    expect(moveSokoban(off.state, 'Right')).toMatchObject({ moved: false }); // box against the wall
    expect(moveSokoban(sokobanStateFromText(['###', '#P#', '###']), 'Up').moved).toBe(false);
  });

  it('solves optimally', () => {
    expect(solveSokoban(sokobanStateFromText(LEVEL))).toEqual(['Left', 'Up', 'Right']);
    expect(solveSokoban(sokobanStateFromText(['#####', '#P__#', '#_X_#', '#__O#', '#####']))).toHaveLength(5);
    expect(solveSokoban(sokobanStateFromText(['#####', '#X__#', '#P_O#', '#####']))).toBeUndefined(); // box in a corner
  });
});

describe('generateSokobanLevel', () => {
  it('is deterministic and every level is solvable within the bound (300 seeds; the oracle test plays 1,000)', () => {
    expect(generateSokobanLevel(mulberry32(5))).toEqual(generateSokobanLevel(mulberry32(5)));
    const lengths = new Set<number>();
    for (let seed = 0; seed < 300; seed++) {
      const { state, solution } = generateSokobanLevel(mulberry32(seed));
      expect(state.room.width).toBe(6);
      expect(solution.length).toBeGreaterThan(0);
      expect(solution.length).toBeLessThanOrEqual(5);
      expect(solveSokoban(state)).toHaveLength(solution.length);
      lengths.add(solution.length);
    }
    expect(lengths.size).toBeGreaterThanOrEqual(3);
  });

  it('takes more boxes and a larger bound', () => {
    const { state, solution } = generateSokobanLevel(mulberry32(1), { boxes: 2, maxSolutionSteps: 10 });
    expect(state.boxes).toHaveLength(2);
    expect(solution.length).toBeLessThanOrEqual(10);
  });
});
