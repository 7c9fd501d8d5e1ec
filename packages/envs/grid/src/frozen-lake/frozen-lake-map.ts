import { InvalidArgumentError } from '@saccade/spec';
import type { Position } from '../common/position';
import { randomInt, type RandomSource } from '../common/random-source';
import { solveFrozenLake } from './solve-frozen-lake';

/**
 * A FrozenLake map as gym writes it: one string per row, `S` start, `F` frozen, `H` hole, `G` goal.
 */
export interface FrozenLakeMap {
  readonly size: number;
  readonly rows: readonly string[];
  readonly start: Position;
  readonly goal: Position;
}

/** Options of {@link generateFrozenLakeMap}. */
export interface GenerateFrozenLakeMapOptions {
  /** Side of the square map (default 4). */
  size?: number;
  /** Probability that a tile is frozen rather than a hole (default 0.8). */
  frozenProbability?: number;
  /** Longest shortest path accepted, in moves (default: any). */
  maxSolutionSteps?: number;
  /** Tries before giving up (default 10,000). */
  maxTries?: number;
}

/** The tile letter at a position (`H` outside the map never happens: callers clamp moves). */
export function frozenLakeTile(map: FrozenLakeMap, position: Position): string {
  return map.rows[position.row]?.[position.col] ?? 'H';
}

/**
 * A random map drawn from `random` (so from the episode's seed): each tile frozen with probability
 * `frozenProbability`, start and goal on two distinct random tiles, redrawn until a BFS finds a
 * path from start to goal of at most `maxSolutionSteps` moves.
 */
export function generateFrozenLakeMap(random: RandomSource, options: GenerateFrozenLakeMapOptions = {}): FrozenLakeMap {
  const size = options.size ?? 4;
  const frozenProbability = Math.min(1, options.frozenProbability ?? 0.8);
  const maxTries = options.maxTries ?? 10_000;
  const maxSolutionSteps = options.maxSolutionSteps ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(size) || size < 2) throw new InvalidArgumentError({ argument: 'size', expected: 'an integer ≥ 2', value: size });
  if (!(frozenProbability > 0)) throw new InvalidArgumentError({ argument: 'frozenProbability', expected: 'a number in (0, 1]', value: frozenProbability });
  for (let attempt = 0; attempt < maxTries; attempt++) {
    const grid: string[][] = [];
    for (let row = 0; row < size; row++) {
      const line: string[] = [];
      for (let col = 0; col < size; col++) line.push(random() < frozenProbability ? 'F' : 'H');
      grid.push(line);
    }
    const startIndex = randomInt(random, size * size);
    let goalIndex = randomInt(random, size * size - 1);
    if (goalIndex >= startIndex) goalIndex += 1;
    const start = { row: Math.floor(startIndex / size), col: startIndex % size };
    const goal = { row: Math.floor(goalIndex / size), col: goalIndex % size };
    grid[start.row]![start.col] = 'S';
    grid[goal.row]![goal.col] = 'G';
    const map: FrozenLakeMap = { size, rows: grid.map((line) => line.join('')), start, goal };
    const plan = solveFrozenLake(map, start);
    if (plan !== undefined && plan.length <= maxSolutionSteps) return map;
  }
  throw new InvalidArgumentError({
    argument: 'options',
    expected: `settings that give a solvable map within ${maxTries} tries (raise frozenProbability or maxSolutionSteps)`,
    value: { size, frozenProbability, maxSolutionSteps },
  });
}

/** Builds a map from gym-style rows (`S`, `F`, `H`, `G`); handy for tests and fixed levels. */
export function frozenLakeMapFromRows(rows: readonly string[]): FrozenLakeMap {
  const size = rows.length;
  let start: Position | undefined;
  let goal: Position | undefined;
  rows.forEach((line, row) => {
    if (line.length !== size) throw new InvalidArgumentError({ argument: 'map', expected: `${size} rows of ${size} tiles`, value: rows });
    for (let col = 0; col < size; col++) {
      const tile = line[col];
      if (tile === 'S') start = { row, col };
      else if (tile === 'G') goal = { row, col };
      else if (tile !== 'F' && tile !== 'H') throw new InvalidArgumentError({ argument: 'map', expected: `tiles S, F, H, G (found "${tile}" at row ${row}, column ${col})`, value: rows });
    }
  });
  if (!start || !goal) throw new InvalidArgumentError({ argument: 'map', expected: 'one S (start) and one G (goal)', value: rows });
  return { size, rows: [...rows], start, goal };
}
