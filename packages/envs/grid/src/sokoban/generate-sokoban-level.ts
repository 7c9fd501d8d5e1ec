import { InvalidArgumentError } from '@saccade/spec';
import { DIRECTIONS, type Direction } from '../common/position';
import { randomInt, type RandomSource } from '../common/random-source';
import { isSokobanSolved, neighbourCell, type SokobanRoom, type SokobanState } from './sokoban-rules';
import { solveSokoban } from './solve-sokoban';

/** Options of {@link generateSokobanLevel}. */
export interface GenerateSokobanLevelOptions {
  /** Room width including the outer walls (default 6). */
  width?: number;
  /** Room height including the outer walls (default 6). */
  height?: number;
  /** Number of boxes and targets (default 1). */
  boxes?: number;
  /** Longest optimal solution accepted, in moves (default 5). */
  maxSolutionSteps?: number;
  /** Rooms drawn before giving up (default 2,000). */
  maxTries?: number;
}

/** A generated Sokoban level: its start state and an optimal solution. */
export interface SokobanLevel {
  state: SokobanState;
  /** An optimal (fewest moves) solution, found by BFS. */
  solution: Direction[];
}

/** gym-sokoban's carving masks (3×3, 1 = floor) for the room's random walk. */
const MASKS: readonly (readonly number[])[] = [
  [0, 0, 0, 1, 1, 1, 0, 0, 0],
  [0, 1, 0, 0, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 1, 1, 0],
  [0, 0, 0, 0, 1, 1, 0, 1, 0],
];

/**
 * A level drawn from `random` the way gym-sokoban draws them: a room carved by a random walk,
 * boxes placed on their targets, then played backwards (the player walks and pulls boxes), then
 * kept only when a BFS solves it in 1 to `maxSolutionSteps` moves.
 */
export function generateSokobanLevel(random: RandomSource, options: GenerateSokobanLevelOptions = {}): SokobanLevel {
  const width = options.width ?? 6;
  const height = options.height ?? 6;
  const boxCount = options.boxes ?? 1;
  const maxSolutionSteps = options.maxSolutionSteps ?? 5;
  const maxTries = options.maxTries ?? 2_000;
  if (width < 3 || height < 3) throw new InvalidArgumentError({ argument: 'width, height', expected: 'integers ≥ 3', value: [width, height] });
  if (!Number.isInteger(boxCount) || boxCount < 1) throw new InvalidArgumentError({ argument: 'boxes', expected: 'an integer ≥ 1', value: boxCount });
  for (let attempt = 0; attempt < maxTries; attempt++) {
    const walls = carveRoom(random, width, height);
    const floor: number[] = [];
    walls.forEach((wall, cell) => wall === 0 && floor.push(cell));
    if (floor.length < boxCount + 2) continue;
    const picked = pickDistinct(random, floor, boxCount + 1);
    const targets = picked.slice(0, boxCount).sort((a, b) => a - b);
    const room: SokobanRoom = { width, height, walls, targets };
    const solved: SokobanState = { room, boxes: targets, player: picked[boxCount]! };
    const start = playBackwards(random, solved, 1 + randomInt(random, 3 * maxSolutionSteps));
    if (isSokobanSolved(start)) continue;
    const solution = solveSokoban(start, { maxSteps: maxSolutionSteps });
    if (solution && solution.length > 0) return { state: start, solution };
  }
  throw new InvalidArgumentError({
    argument: 'maxSolutionSteps',
    expected: `a bound that ${width}×${height} levels with ${boxCount} box(es) can meet within ${maxTries} tries (raise it)`,
    value: maxSolutionSteps,
  });
}

function carveRoom(random: RandomSource, width: number, height: number): Uint8Array {
  const walls = new Uint8Array(width * height).fill(1);
  const steps = Math.floor(1.5 * (width + height));
  let row = 1 + randomInt(random, height - 2);
  let col = 1 + randomInt(random, width - 2);
  let direction = DIRECTIONS[randomInt(random, 4)]!;
  for (let step = 0; step < steps; step++) {
    if (random() < 0.35) direction = DIRECTIONS[randomInt(random, 4)]!;
    const mask = MASKS[randomInt(random, MASKS.length)]!;
    for (let i = 0; i < 9; i++) {
      const r = row - 1 + Math.floor(i / 3);
      const c = col - 1 + (i % 3);
      if (mask[i] === 1 && r >= 1 && c >= 1 && r <= height - 2 && c <= width - 2) walls[r * width + c] = 0;
    }
    row = Math.max(1, Math.min(height - 2, row + (direction === 'Down' ? 1 : direction === 'Up' ? -1 : 0)));
    col = Math.max(1, Math.min(width - 2, col + (direction === 'Right' ? 1 : direction === 'Left' ? -1 : 0)));
  }
  return walls;
}

function pickDistinct(random: RandomSource, cells: readonly number[], count: number): number[] {
  const pool = [...cells];
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(random, pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

/**
 * Reverse play: each step the player walks one cell into free floor and, with probability 0.8,
 * pulls the box behind it. Reversed, every step is a legal forward move, so the start it returns
 * is solvable in at most `steps` moves.
 */
function playBackwards(random: RandomSource, solved: SokobanState, steps: number): SokobanState {
  const { room } = solved;
  let boxes = [...solved.boxes];
  let player = solved.player;
  for (let step = 0; step < steps; step++) {
    const direction = DIRECTIONS[randomInt(random, 4)]!;
    const next = neighbourCell(room, player, direction);
    if (next < 0 || room.walls[next] === 1 || boxes.includes(next)) continue;
    const behind = neighbourCell(room, player, OPPOSITE[direction]);
    if (behind >= 0 && boxes.includes(behind) && random() < 0.8) {
      boxes = boxes.map((box) => (box === behind ? player : box));
    }
    player = next;
  }
  return { room, boxes: boxes.sort((a, b) => a - b), player };
}

const OPPOSITE: Readonly<Record<Direction, Direction>> = { Up: 'Down', Down: 'Up', Left: 'Right', Right: 'Left' };
