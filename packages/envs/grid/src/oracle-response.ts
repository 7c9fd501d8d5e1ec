import type { OutputFormat } from '@saccade/core';
import { InvalidStateError } from '@saccade/spec';
import type { Direction } from './common/position';
import { frozenLakeStatus, moveFrozenLake, type FrozenLakeState } from './frozen-lake/frozen-lake-rules';
import { solveFrozenLake } from './frozen-lake/solve-frozen-lake';
import { GridEnv } from './grid-env';
import { formatResponse } from './prompts/format-instructions';
import { describeState } from './reasoning/describe-state';
import { frozenLakeSymbolicState, sokobanSymbolicState, type GridSymbolicState } from './reasoning/symbolic-state';
import { isSokobanSolved, moveSokoban, type SokobanState } from './sokoban/sokoban-rules';
import { solveSokoban } from './sokoban/solve-sokoban';

/** A state of either grid env. */
export type GridState = FrozenLakeState | SokobanState;

/** Options of {@link oracleResponse}. */
export interface OracleResponseOptions {
  /** Actions per answer (default: the env's, else 3). */
  maxActionsPerTurn?: number;
  /** Separator between actions (default: the env's, else ','). */
  actionSeparator?: string;
}

function isFrozenLake(state: GridState): state is FrozenLakeState {
  return 'map' in state;
}

/** An optimal action sequence from a state (BFS); undefined when none exists. */
export function solveGridState(state: GridState): Direction[] | undefined {
  if (isFrozenLake(state)) return frozenLakeStatus(state) === 'playing' ? solveFrozenLake(state.map, state.player) : undefined;
  return solveSokoban(state);
}

/** The state after the moves, as the agent expects it (no slipping); stops when the episode would end. */
export function simulateMoves(state: GridState, moves: readonly Direction[]): GridState {
  let current = state;
  for (const move of moves) {
    if (isFrozenLake(current)) {
      current = moveFrozenLake(current, move).state;
      if (frozenLakeStatus(current) !== 'playing') break;
    } else {
      current = moveSokoban(current, move).state;
      if (isSokobanSolved(current)) break;
    }
  }
  return current;
}

/** The symbolic state (objects and their positions) of a FrozenLake or Sokoban state. */
export function gridSymbolicState(state: GridState): GridSymbolicState {
  return isFrozenLake(state) ? frozenLakeSymbolicState(state) : sokobanSymbolicState(state);
}

/**
 * A correct response for the current state in a VAGEN format: the next (up to the per-turn cap)
 * moves of an optimal BFS plan, with a true `<observation>` and `<prediction>` where the format has
 * them. Given an env, its format and cap are the defaults. Throws when no plan exists (episode over).
 *
 * @example
 * const env = new FrozenLakeEnv({ observation: 'text' });
 * await env.reset({ seed: 1 });
 * const { reward } = await env.step(oracleResponse(env));
 */
export function oracleResponse(source: GridEnv<GridState> | GridState, format?: OutputFormat, options: OracleResponseOptions = {}): string {
  const fromEnv = source instanceof GridEnv ? source.responseFormat : undefined;
  const state = source instanceof GridEnv ? source.state : source;
  const chosenFormat = format ?? fromEnv?.format ?? 'free_think';
  const cap = options.maxActionsPerTurn ?? fromEnv?.maxActionsPerTurn ?? 3;
  const separator = options.actionSeparator ?? fromEnv?.actionSeparator ?? ',';
  const plan = solveGridState(state);
  if (plan === undefined || plan.length === 0) {
    throw new InvalidStateError({ operation: 'oracleResponse()', expected: 'a state the player can still solve', actual: 'no plan exists (the episode is over or unsolvable)' });
  }
  const moves = plan.slice(0, cap);
  const after = simulateMoves(state, moves);
  return formatResponse(chosenFormat, {
    observation: describeState(gridSymbolicState(state)),
    reasoning: `The shortest plan is ${plan.join(', ')} (${plan.length} move${plan.length === 1 ? '' : 's'}); I make the next ${moves.length}.`,
    prediction: describeState(gridSymbolicState(after)),
    answer: moves.join(`${separator} `),
  });
}
