import type { Rng } from '@saccade/core';
import { InvalidArgumentError } from '@saccade/spec';
import type { Direction } from '../common/position';
import { checkGridEnvOptions, GridEnv, type GridEnvOptions, type GridMove } from '../grid-env';
import { frozenLakeSystemPrompt } from '../prompts/frozen-lake-prompt';
import { frozenLakeSymbolicState, type FrozenLakeSymbolicState } from '../reasoning/symbolic-state';
import { frozenLakePicture } from '../render/frozen-lake-svg';
import type { GridPicture } from '../render/grid-picture';
import { frozenLakeMapFromRows, generateFrozenLakeMap } from './frozen-lake-map';
import { frozenLakeStatus, frozenLakeText, moveFrozenLake, type FrozenLakeState } from './frozen-lake-rules';

/** Options of {@link FrozenLakeEnv}: the lake's size and layout, and the grid envs' common settings. */
export interface FrozenLakeEnvOptions extends GridEnvOptions {
  /** Side of the square lake (default 4). */
  size?: number;
  /** Probability that a tile is frozen (default 0.8). */
  frozenProbability?: number;
  /** Longest shortest path a drawn map may need, in moves (default: any; the registered env uses turns × actions). */
  maxSolutionSteps?: number;
  /** gym's slippery ice: each move goes the intended way or perpendicular, 1/3 each (default false). */
  slippery?: boolean;
  /** A fixed map in gym's letters (`S`, `F`, `H`, `G`) instead of one drawn from the seed. */
  map?: readonly string[];
  /** Reward for reaching the goal (default 10: gym's 1 + VAGEN's 9). */
  goalReward?: number;
}

/**
 * FrozenLake with VAGEN's rules: walk from the start to the goal without falling in a hole. The
 * map is drawn from the seed and always solvable. Reward terms: `format` (0.5 per well-formed
 * turn with valid actions), `goal` (10 on reaching it), and with `visualReasoningReward`
 * `grounding` / `worldmodel`.
 */
export class FrozenLakeEnv extends GridEnv<FrozenLakeState> {
  readonly id: string;
  readonly options: Readonly<FrozenLakeEnvOptions>;

  constructor(options: FrozenLakeEnvOptions = {}, id = 'saccade/FrozenLake-v1') {
    super(options);
    checkGridEnvOptions(id, options, ['size', 'frozenProbability', 'maxSolutionSteps', 'slippery', 'map', 'goalReward'], { size: { min: 2, max: 64 }, maxSolutionSteps: { min: 1 } });
    const probability = options.frozenProbability;
    if (probability !== undefined && !(typeof probability === 'number' && probability > 0 && probability <= 1)) throw new InvalidArgumentError({ argument: 'frozenProbability', expected: 'a number in (0, 1]', value: probability });
    this.id = id;
    this.options = { ...options };
    if (options.map !== undefined) frozenLakeMapFromRows(options.map);
  }

  systemPrompt(): string {
    const { observation, format, maxActionsPerTurn, actionSeparator } = this.settings;
    return frozenLakeSystemPrompt({ observation, format, maxActions: maxActionsPerTurn, separator: actionSeparator, slippery: this.options.slippery ?? false });
  }

  protected createLevel(random: Rng, episode: Record<string, unknown>): FrozenLakeState {
    const options = { ...this.options, ...episode } as FrozenLakeEnvOptions;
    if (options.map !== undefined) {
      if (!Array.isArray(options.map)) throw new InvalidArgumentError({ argument: 'map', expected: 'an array of rows', value: options.map });
      const map = frozenLakeMapFromRows(options.map);
      return { map, player: map.start };
    }
    const map = generateFrozenLakeMap(random.next, { size: options.size ?? 4, frozenProbability: options.frozenProbability ?? 0.8,
      ...(options.maxSolutionSteps === undefined ? {} : { maxSolutionSteps: options.maxSolutionSteps }),
    });
    return { map, player: map.start };
  }

  protected move(state: FrozenLakeState, direction: Direction, random: Rng): GridMove<FrozenLakeState> {
    const { state: next } = moveFrozenLake(state, direction, this.options.slippery ? { random: random.next } : undefined);
    const status = frozenLakeStatus(next);
    return { state: next, terms: status === 'goal' ? { goal: this.options.goalReward ?? 10 } : {}, done: status !== 'playing' };
  }

  protected isSuccess(state: FrozenLakeState): boolean {
    return frozenLakeStatus(state) === 'goal';
  }

  protected playerKey(state: FrozenLakeState): number {
    return state.player.row * state.map.size + state.player.col;
  }

  protected toText(state: FrozenLakeState): string {
    return frozenLakeText(state);
  }

  protected picture(state: FrozenLakeState): GridPicture {
    return frozenLakePicture(state);
  }

  protected toSymbolic(state: FrozenLakeState): FrozenLakeSymbolicState {
    return frozenLakeSymbolicState(state);
  }
}
