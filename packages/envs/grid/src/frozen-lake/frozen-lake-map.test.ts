import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/mulberry';
import { frozenLakeMapFromRows, generateFrozenLakeMap } from './frozen-lake-map';
import { frozenLakeStatus, frozenLakeText, moveFrozenLake } from './frozen-lake-rules';
import { solveFrozenLake } from './solve-frozen-lake';

describe('generateFrozenLakeMap', () => {
  it('draws the same map from the same random stream and different maps from others', () => {
    const a = generateFrozenLakeMap(mulberry32(7));
    expect(generateFrozenLakeMap(mulberry32(7))).toEqual(a);
    const distinct = new Set(Array.from({ length: 50 }, (_, seed) => generateFrozenLakeMap(mulberry32(seed)).rows.join('/')));
    expect(distinct.size).toBeGreaterThan(40);
  });

  it('always returns a solvable map with distinct start and goal', () => {
    // 300 seeds here; oracle-response.test.ts plays 1,000 seeds of the registered envs.
    for (let seed = 0; seed < 300; seed++) {
      const map = generateFrozenLakeMap(mulberry32(seed), { size: 4 });
      expect(map.rows).toHaveLength(4);
      expect(map.start).not.toEqual(map.goal);
      const plan = solveFrozenLake(map, map.start);
      expect(plan).toBeDefined();
      let state = { map, player: map.start };
      for (const move of plan!) state = moveFrozenLake(state, move).state;
      expect(frozenLakeStatus(state)).toBe('goal');
    }
  });

  it('holds holes at about 1 − p(frozen)', () => {
    let holes = 0;
    let tiles = 0;
    for (let seed = 0; seed < 300; seed++) {
      const map = generateFrozenLakeMap(mulberry32(seed), { size: 8 });
      for (const row of map.rows) {
        tiles += row.length;
        holes += [...row].filter((tile) => tile === 'H').length;
      }
    }
    // Rejection of unsolvable maps lowers the hole share a little below 0.2.
    expect(holes / tiles).toBeGreaterThan(0.12);
    expect(holes / tiles).toBeLessThan(0.22);
  });
});

describe('FrozenLake rules', () => {
  const map = frozenLakeMapFromRows(['SFFF', 'FHFH', 'FFFH', 'HFFG']);

  it('finds the shortest path', () => {
    expect(solveFrozenLake(map, map.start)).toHaveLength(6);
    expect(solveFrozenLake(frozenLakeMapFromRows(['SH', 'HG']), { row: 0, col: 0 })).toBeUndefined();
  });

  it('keeps the player in place at the edge and writes the text symbols', () => {
    const start = { map, player: map.start };
    expect(moveFrozenLake(start, 'Up').state.player).toEqual({ row: 0, col: 0 });
    expect(frozenLakeText(start)).toBe('P___\n_O_O\n___O\nO__G');
    expect(frozenLakeText({ map, player: { row: 1, col: 1 } }).split('\n')[1]).toBe('_X_O');
    expect(frozenLakeText({ map, player: { row: 3, col: 3 } }).split('\n')[3]).toBe('O__√');
  });

  it('slips with gym\'s 1/3 rule', () => {
    const random = mulberry32(3);
    const counts = { Up: 0, Down: 0, Left: 0, Right: 0 };
    const middle = { map: frozenLakeMapFromRows(['FFF', 'FSF', 'FFG']), player: { row: 1, col: 1 } };
    for (let i = 0; i < 3000; i++) counts[moveFrozenLake(middle, 'Right', { random }).taken] += 1;
    expect(counts.Left).toBe(0);
    for (const direction of ['Up', 'Down', 'Right'] as const) expect(counts[direction] / 3000).toBeCloseTo(1 / 3, 1);
  });
});
