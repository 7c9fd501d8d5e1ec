import { createRng, parseFormattedResponse, type OutputFormat, type Rng } from '@saccade/core';
import {
  IMAGE_PLACEHOLDER,
  InvalidArgumentError,
  InvalidStateError,
  type Env,
  type EnvInfo,
  type EnvResetOptions,
  type ImageData,
  type Observation,
  type ResetResult,
  type StepResult,
} from '@saccade/spec';
import type { DiscreteActionSpace } from '@saccade/spec';
import { parseDirection, type Direction } from './common/position';
import type { ObservationMode } from './common/observation-mode';
import { oracleResponse, type GridState } from './oracle-response';

/** The moves of both grid envs, in Gymnasium's FrozenLake order. */
const GRID_ACTIONS: readonly Direction[] = ['Left', 'Down', 'Right', 'Up'];
import { formatReminder } from './prompts/format-instructions';
import { relationF1 } from './reasoning/relation-f1';
import { renderPicture, type GridPicture } from './render/grid-picture';
import { checkCellSize } from './render/grid-svg';
import { gridFrameCache } from './render/png-cache';
import type { GridSymbolicState } from './reasoning/symbolic-state';
import type { VisualReasoningJudge } from './reasoning/visual-reasoning-judge';

const FORMATS: readonly OutputFormat[] = ['free_think', 'no_think', 'grounding', 'worldmodeling', 'grounding_worldmodeling'];
const MODES: readonly ObservationMode[] = ['vision', 'text', 'both'];

/** Options both grid envs take. */
export interface GridEnvOptions {
  /** What the agent sees: a rendered image, the text grid, or both (default 'vision'). */
  observation?: ObservationMode;
  /** VAGEN response format (default 'free_think'). */
  format?: OutputFormat;
  /** Actions read from one answer (default 3); the rest are ignored. */
  maxActionsPerTurn?: number;
  /** Separator between actions in `<answer>` (default ','). */
  actionSeparator?: string;
  /** Pixels per cell of the image (default 16). */
  cellSize?: number;
  /** Reward for a turn whose format is right and whose actions are all valid (default 0.5). */
  formatReward?: number;
  /** Add VAGEN-Full's `grounding` / `worldmodel` terms, scored against the true state (default false). */
  visualReasoningReward?: boolean;
  /** Weight of each visual reasoning term (default 0.5). */
  visualReasoningWeight?: number;
  /** Scores `<observation>` / `<prediction>`; default: LLM-free relation F1 (`relationF1`). */
  judge?: VisualReasoningJudge;
  /** Reuse frames rendered before for the same picture (process-wide LRU cache; default true). */
  cacheFrames?: boolean;
}

/** The result of one move in a concrete game. */
export interface GridMove<STATE> {
  state: STATE;
  /** Reward terms of this move (summed over the turn). */
  terms: Record<string, number>;
  /** The episode ended (goal, hole, solved). */
  done: boolean;
}

interface Resolved {
  observation: ObservationMode;
  format: OutputFormat;
  maxActionsPerTurn: number;
  actionSeparator: string;
  cellSize: number;
  formatReward: number;
  visualReasoningReward: boolean;
  visualReasoningWeight: number;
  judge: VisualReasoningJudge | undefined;
  cacheFrames: boolean;
}

/**
 * The turn loop both grid envs share: parse the response in the chosen format, run its actions
 * until the first unknown one or the end of the episode, score VAGEN's reward terms, render.
 */
export abstract class GridEnv<STATE> implements Env {
  readonly specificationVersion = 'v1' as const;
  abstract readonly id: string;
  protected readonly settings: Resolved;
  #state: STATE | undefined;
  #random: Rng | undefined;
  #done = false;
  #seed: number | undefined;

  constructor(options: GridEnvOptions) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new InvalidArgumentError({ argument: 'options', expected: 'an object of env options', value: options });
    const observation = options.observation ?? 'vision';
    const format = options.format ?? 'free_think';
    if (!MODES.includes(observation)) throw new InvalidArgumentError({ argument: 'observation', expected: MODES.join(' | '), value: observation });
    if (!FORMATS.includes(format)) throw new InvalidArgumentError({ argument: 'format', expected: FORMATS.join(' | '), value: format });
    const maxActionsPerTurn = options.maxActionsPerTurn ?? 3;
    if (!Number.isSafeInteger(maxActionsPerTurn) || maxActionsPerTurn < 1) {
      throw new InvalidArgumentError({ argument: 'maxActionsPerTurn', expected: 'a positive integer', value: maxActionsPerTurn });
    }
    if (options.judge !== undefined && typeof options.judge !== 'function') {
      // Settings such as {url, model} become a judge function in the saccade CLI and env service.
      throw new InvalidArgumentError({ argument: 'judge', expected: 'a function (kind, text, state) => Promise<number> (judge settings such as {"url": …} are turned into one by the saccade CLI and env service)', value: options.judge });
    }
    this.settings = {
      observation,
      format,
      maxActionsPerTurn,
      actionSeparator: options.actionSeparator ?? ',',
      cellSize: options.cellSize ?? 16,
      formatReward: options.formatReward ?? 0.5,
      visualReasoningReward: options.visualReasoningReward ?? false,
      visualReasoningWeight: options.visualReasoningWeight ?? 0.5,
      judge: options.judge,
      cacheFrames: options.cacheFrames ?? true,
    };
  }

  /** The current game state; throws before the first reset. */
  get state(): STATE {
    if (this.#state === undefined) throw new InvalidStateError({ operation: 'state', expected: 'reset() to be called first', actual: 'no episode yet' });
    return this.#state;
  }

  /** The response format and action cap this env reads answers with. */
  get responseFormat(): { format: OutputFormat; maxActionsPerTurn: number; actionSeparator: string } {
    const { format, maxActionsPerTurn, actionSeparator } = this.settings;
    return { format, maxActionsPerTurn, actionSeparator };
  }

  /**
   * A correct response for the current state in the env's format: the next moves of a shortest
   * plan (BFS). Oracle agents find this method through core's wrappers.
   */
  oracleResponse(): string {
    return oracleResponse(this as unknown as GridEnv<GridState>);
  }

  /** Discrete moves in the env's format: 1 to maxActionsPerTurn of Left, Down, Right, Up. */
  actionSpace(): DiscreteActionSpace {
    const { format, maxActionsPerTurn, actionSeparator } = this.settings;
    return { kind: 'discrete', actions: GRID_ACTIONS, maxActionsPerTurn, separator: actionSeparator, format };
  }

  /** The true state in symbolic form (positions of the player and every object). */
  symbolicState(): GridSymbolicState {
    return this.toSymbolic(this.state);
  }

  abstract systemPrompt(): string;
  /** A fresh level for an episode, drawn from the episode's generator. */
  protected abstract createLevel(random: Rng, options: Record<string, unknown>): STATE;
  protected abstract move(state: STATE, direction: Direction, random: Rng): GridMove<STATE>;
  protected abstract isSuccess(state: STATE): boolean;
  protected abstract playerKey(state: STATE): number;
  protected abstract toText(state: STATE): string;
  /** What the state looks like, cell by cell (render composes the frame from cached cell tiles). */
  protected abstract picture(state: STATE): GridPicture;
  protected abstract toSymbolic(state: STATE): GridSymbolicState;

  async reset(options: EnvResetOptions = {}): Promise<ResetResult> {
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
    const root = createRng(seed);
    this.#seed = seed;
    this.#state = this.createLevel(root.fork('level'), options.options ?? {});
    this.#random = root.fork('dynamics');
    this.#done = false;
    const observation = await this.observe(`[Initial Observation]:\n${IMAGE_PLACEHOLDER}\n${this.#reminder()}`);
    return { observation, info: { seed, state: this.symbolicState() } };
  }

  async step(action: string): Promise<StepResult> {
    const before = this.state;
    if (this.#done) {
      throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    }
    const { format, maxActionsPerTurn, actionSeparator } = this.settings;
    const parsed = parseFormattedResponse(action, { format, maxActions: maxActionsPerTurn, separator: actionSeparator });
    let valid = parsed.formatCorrect && parsed.actions.length > 0;
    const executed: Direction[] = [];
    const gameTerms: Record<string, number> = {};
    let state = before;
    let done = false;
    for (const text of parsed.actions) {
      const direction = parseDirection(text);
      if (direction === undefined) {
        valid = false;
        break;
      }
      const result = this.move(state, direction, this.#random!);
      state = result.state;
      executed.push(direction);
      for (const [name, value] of Object.entries(result.terms)) gameTerms[name] = (gameTerms[name] ?? 0) + value;
      if (result.done) {
        done = true;
        break;
      }
    }
    this.#state = state;
    this.#done = done;
    const formatRewarded = valid && parsed.formatCorrect;
    const rewardTerms: Record<string, number> = { format: formatRewarded ? this.settings.formatReward : 0 };
    for (const [name, value] of Object.entries(gameTerms)) rewardTerms[name] = round(value);
    const judgeFailures: string[] = [];
    if (formatRewarded && this.settings.visualReasoningReward) {
      const weight = this.settings.visualReasoningWeight;
      const [grounding, worldmodel] = await Promise.all([
        parsed.observation === undefined ? undefined : this.#judge('grounding', parsed.observation, before, judgeFailures),
        parsed.prediction === undefined ? undefined : this.#judge('worldmodel', parsed.prediction, state, judgeFailures),
      ]);
      if (grounding !== undefined) rewardTerms.grounding = weight * grounding;
      if (worldmodel !== undefined) rewardTerms.worldmodel = weight * worldmodel;
    }
    const reward = round(Object.values(rewardTerms).reduce((sum, value) => sum + value, 0));
    const info: EnvInfo = {
      rewardTerms,
      metrics: {
        action_is_valid: valid,
        action_is_effective: this.playerKey(state) !== this.playerKey(before),
        success: this.isSuccess(state),
        format_correct: parsed.formatCorrect,
        // Judge calls that failed this turn (their terms scored 0), only where a judge was asked.
        ...(this.settings.judge !== undefined && (rewardTerms.grounding !== undefined || rewardTerms.worldmodel !== undefined) ? { judge_failures: judgeFailures.length } : {}),
      },
      isFormatRewarded: formatRewarded,
      executedActions: executed,
      seed: this.#seed,
      state: this.toSymbolic(state),
    };
    if (parsed.error !== undefined) info.formatError = parsed.error;
    if (judgeFailures.length > 0) info.judgeError = judgeFailures[0];
    const lines = [
      parsed.formatCorrect ? '' : `Your answer did not follow the format (${parsed.error ?? 'no actions'}).`,
      `After your answer, the extracted valid action(s): ${executed.length > 0 ? executed.join(', ') : 'none'}.`,
      `The observation is now:\n${IMAGE_PLACEHOLDER}`,
      done ? (this.isSuccess(state) ? 'The episode is over: you succeeded.' : 'The episode is over: you failed.') : this.#reminder(),
    ];
    const observation = await this.observe(lines.filter((line) => line.length > 0).join('\n'));
    return { observation, reward, terminated: done, truncated: false, info };
  }

  async close(): Promise<void> {
    this.#state = undefined;
    this.#random = undefined;
  }

  /** Fills the `<image>` slot of a template with the state's image, text grid, or both. */
  protected async observe(template: string): Promise<Observation> {
    const state = this.state;
    const { observation } = this.settings;
    const text = observation === 'vision' ? IMAGE_PLACEHOLDER : observation === 'text' ? this.toText(state) : `${IMAGE_PLACEHOLDER}\n${this.toText(state)}`;
    const images: ImageData[] = observation === 'text' ? [] : [await this.render(state)];
    return { text: template.replace(IMAGE_PLACEHOLDER, () => text), images };
  }

  /** The state as a PNG, each cell `cellSize` pixels. */
  async render(state: STATE = this.state): Promise<ImageData> {
    const { cacheFrames } = this.settings;
    const cellSize = checkCellSize(this.settings.cellSize);
    const picture = this.picture(state);
    const size = { width: picture.cols * cellSize, height: picture.rows * cellSize };
    const key = `${this.id}|${cellSize}|${picture.cols}|${picture.cells.join(',')}`;
    const cached = cacheFrames ? gridFrameCache.get(key) : undefined;
    if (cached !== undefined) return { data: cached.slice(), mediaType: 'image/png', ...size };
    const image = await renderPicture(picture, cellSize);
    if (cacheFrames) gridFrameCache.set(key, image.data.slice());
    return { data: image.data, mediaType: 'image/png', ...size };
  }

  #reminder(): string {
    const { format, maxActionsPerTurn, actionSeparator } = this.settings;
    return `Decide your next action(s). ${formatReminder(format, maxActionsPerTurn, actionSeparator)}`;
  }

  /** A term's score in [0, 1]; a judge that fails (unreachable, say) scores 0 and its message joins `failures`: the episode goes on. */
  async #judge(kind: 'grounding' | 'worldmodel', text: string, state: STATE, failures: string[]): Promise<number> {
    const symbolic = this.toSymbolic(state);
    let score: number;
    if (this.settings.judge === undefined) score = relationF1(text, symbolic).f1;
    else {
      try {
        score = await this.settings.judge(kind, text, symbolic);
      } catch (error) {
        failures.push(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      }
    }
    return Number.isFinite(score) ? Math.max(0, Math.min(1, score)) : 0;
  }
}

/** Rounds away float noise (−0.1 × 3 = −0.30000000000000004). */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

/** The options every grid env takes. */
export const GRID_ENV_OPTION_NAMES: readonly string[] = ['observation', 'format', 'maxActionsPerTurn', 'actionSeparator', 'cellSize', 'formatReward', 'visualReasoningReward', 'visualReasoningWeight', 'judge', 'cacheFrames'];

/**
 * Refuses an option the env does not take (a typo such as `zzz` or `sise` would otherwise be
 * ignored) and a number outside its range, when the env is made rather than at the first reset.
 */
export function checkGridEnvOptions(
  id: string,
  options: object,
  names: readonly string[],
  integers: Record<string, { min: number; max?: number }> = {},
): void {
  const known = [...GRID_ENV_OPTION_NAMES, ...names];
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!known.includes(name)) throw new InvalidArgumentError({ argument: name, expected: `an option of ${id}: ${known.join(', ')}`, value });
    const range = integers[name];
    if (range !== undefined && (!Number.isSafeInteger(value) || (value as number) < range.min || (range.max !== undefined && (value as number) > range.max))) {
      throw new InvalidArgumentError({ argument: name, expected: `an integer ≥ ${range.min}${range.max === undefined ? '' : ` and ≤ ${range.max}`}`, value });
    }
  }
  for (const name of ['cellSize']) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > 256)) throw new InvalidArgumentError({ argument: name, expected: 'an integer from 1 to 256 (pixels per cell)', value });
  }
}
