import type { Rng } from '@saccade/core';
import type { Direction } from '../common/position';
import { checkGridEnvOptions, GridEnv, type GridEnvOptions, type GridMove } from '../grid-env';
import { sokobanSystemPrompt } from '../prompts/sokoban-prompt';
import { sokobanSymbolicState, type SokobanSymbolicState } from '../reasoning/symbolic-state';
import { sokobanPicture } from '../render/sokoban-svg';
import type { GridPicture } from '../render/grid-picture';
import { generateSokobanLevel } from './generate-sokoban-level';
import { isSokobanSolved, moveSokoban, sokobanStateFromText, sokobanText, type SokobanState } from './sokoban-rules';

/** Options of {@link SokobanEnv}: the room's size and boxes, and the grid envs' common settings. */
export interface SokobanEnvOptions extends GridEnvOptions {
  /** Room width including outer walls (default 6). */
  width?: number;
  /** Room height including outer walls (default 6). */
  height?: number;
  /** Number of boxes (default 1). */
  boxes?: number;
  /** Longest optimal solution a generated level may need, in moves (default 5). */
  maxSolutionSteps?: number;
  /** A fixed level in the text symbols (`#`, `_`, `O`, `X`, `√`, `P`, `S`) instead of one drawn from the seed. */
  level?: string;
  /** Reward terms of gym-sokoban (defaults −0.1, +1, −1, +10). */
  stepPenalty?: number;
  boxOnTargetReward?: number;
  boxOffTargetPenalty?: number;
  solvedReward?: number;
}

/**
 * Sokoban with VAGEN's (gym-sokoban's) rules: push every box onto a target. Levels are drawn from
 * the seed by reverse play and kept when a BFS solves them within `maxSolutionSteps`. Reward
 * terms: `format`, `step` (−0.1 per action), `box` (+1 on, −1 off a target), `solved` (+10), and
 * with `visualReasoningReward` `grounding` / `worldmodel`.
 */
export class SokobanEnv extends GridEnv<SokobanState> {
  readonly id: string;
  readonly options: Readonly<SokobanEnvOptions>;

  constructor(options: SokobanEnvOptions = {}, id = 'saccade/Sokoban-v1') {
    super(options);
    checkGridEnvOptions(id, options, ['width', 'height', 'boxes', 'maxSolutionSteps', 'level', 'stepPenalty', 'boxOnTargetReward', 'boxOffTargetPenalty', 'solvedReward'], {
      width: { min: 3, max: 64 },
      height: { min: 3, max: 64 },
      boxes: { min: 1, max: 16 },
      maxSolutionSteps: { min: 1 },
    });
    this.id = id;
    this.options = { ...options };
    if (options.level !== undefined) sokobanStateFromText(options.level);
  }

  systemPrompt(): string {
    const { observation, format, maxActionsPerTurn, actionSeparator } = this.settings;
    return sokobanSystemPrompt({ observation, format, maxActions: maxActionsPerTurn, separator: actionSeparator });
  }

  protected createLevel(random: Rng, episode: Record<string, unknown>): SokobanState {
    const options = { ...this.options, ...episode } as SokobanEnvOptions;
    if (typeof options.level === 'string') return sokobanStateFromText(options.level);
    return generateSokobanLevel(random.next, {
      width: options.width ?? 6,
      height: options.height ?? 6,
      boxes: options.boxes ?? 1,
      maxSolutionSteps: options.maxSolutionSteps ?? 5,
    }).state;
  }

  protected move(state: SokobanState, direction: Direction): GridMove<SokobanState> {
    const o = this.options;
    const result = moveSokoban(state, direction);
    const terms: Record<string, number> = { step: o.stepPenalty ?? -0.1 };
    if (result.boxesOnTargetChange > 0) terms.box = result.boxesOnTargetChange * (o.boxOnTargetReward ?? 1);
    if (result.boxesOnTargetChange < 0) terms.box = -result.boxesOnTargetChange * (o.boxOffTargetPenalty ?? -1);
    const solved = isSokobanSolved(result.state);
    if (solved) terms.solved = o.solvedReward ?? 10;
    return { state: result.state, terms, done: solved };
  }

  protected isSuccess(state: SokobanState): boolean {
    return isSokobanSolved(state);
  }

  protected playerKey(state: SokobanState): number {
    return state.player;
  }

  protected toText(state: SokobanState): string {
    return sokobanText(state);
  }

  protected picture(state: SokobanState): GridPicture {
    return sokobanPicture(state);
  }

  protected toSymbolic(state: SokobanState): SokobanSymbolicState {
    return sokobanSymbolicState(state);
  }
}
