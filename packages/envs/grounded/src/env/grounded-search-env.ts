import {
  ArrayTaskSource,
  checkPointFrame,
  getAnswerChecker,
  oracleAnswer,
  pointInFrame,
  POINT_CROP_PRESET_NAMES,
  resolveCropSettings,
  SEARCH_COORDINATE,
  searchCoordinateCall,
  targetBoxOf,
  TaskFileSource,
  ToolUseWrapper,
  vigorlCropBudget,
  VIGORL_TOOL_FORMAT,
  type AnswerChecker,
  type CropSettings,
  type ImageSize,
  type Point,
  type PointCropPresetName,
  type PointFrame,
  type TaskSource,
  type VisionQATask,
  type VisionQATaskInput,
} from '@saccade/core';
import { InvalidArgumentError, type Env, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, type GroundedReward, type GroundedRewardSetName } from '../rewards/grounded-reward-sets';
import { GroundedRewardSetWrapper } from './grounded-reward-set-wrapper';
import { GroundedTaskEnv } from './grounded-task-env';

/** Multi-turn: crops around points, then the answer; single-turn: one grounded response. */
export type GroundedMode = 'single-turn' | 'multi-turn';

/** Where the tasks come from, the mode, the crop preset and budget, and the reward set. */
export interface GroundedSearchEnvOptions {
  /** A task file in the vision-QA task format (V*Bench, ScreenSpot, …). One of `taskFile`, `tasks`, `source`. */
  taskFile?: string;
  /** Tasks in memory. */
  tasks?: readonly VisionQATaskInput[];
  /** Any task source: a procedural generator (`createVisualSearchSource()`), a file, a store. */
  source?: TaskSource;
  /** Folder for relative image paths of in-memory `tasks` (default: the working directory). */
  baseDirectory?: string;
  /** `multi-turn` (default: crops come back as observations) or `single-turn` (one grounded response). */
  mode?: GroundedMode;
  /** Default `vigorl-multi-turn` (multi-turn) or `vigorl-single-turn` (single-turn). */
  rewardSet?: GroundedRewardSetName;
  /** The crop preset, or `auto` (default): `web` for click tasks, `visual-search` otherwise. */
  preset?: PointCropPresetName | 'auto';
  /** Overrides of the preset's offset, crop size or dot. */
  crop?: Partial<CropSettings>;
  /**
   * The size the model sees the image at, when not the original's: its points (the calls, the
   * `<think>` points, the oracle's) are in pixels of that size, and the crop tool scales them back,
   * as the tool's own `seenSize` (the built-in model sees every image at its `imageSize`). Default:
   * pixels of the original, ViGoRL's.
   */
  seenSize?: ImageSize;
  /** Points name a cell [column, row] of the `seenSize` grid (its middle), as the built-in model's grid pointer writes them. Default false. */
  cells?: boolean;
  /** Crops per episode (default 4: ViGoRL's image budget of the original + 4 crops). */
  maxCrops?: number;
  /** Turns per episode, crops and failed turns included (default maxCrops + 2). */
  maxTurns?: number;
  /** A checker (or a dataset / answer-type name) for every task; default: the task's dataset, else its answer type. */
  checker?: string | AnswerChecker;
  /** The env id (default `saccade/GroundedSearch-v1`). */
  id?: string;
}

const MODES: readonly GroundedMode[] = ['single-turn', 'multi-turn'];

/**
 * ViGoRL's grounded visual search as an env. Multi-turn (default): each turn thinks about one
 * region and either calls `search_coordinate` with a point, whose crop (from the original, with the
 * preset's offset and size) comes back in ViGoRL's `<observation>` message, or answers. The image
 * budget is the original plus `maxCrops` (4) crops: after the last crop the observation says so and
 * `info.forcedPrefix` carries ViGoRL's forced final answer (`<think> Based on all the information
 * I've gathered, … </think>\n<answer>`) for a runner that can make the agent continue it; a further
 * tool call ends the episode without an answer. Single-turn: one response, steps grounded as
 * `(x, y)` in `<think>`. The reward set scores the whole episode on its last step; earlier steps
 * give 0. Works over any task source: the procedural visual-search and GUI-grounding generators,
 * V*Bench or ScreenSpot task files.
 *
 * It is a composition, built here from its options: a task env (`GroundedTaskEnv`: the task, its
 * prompt and the crop preset it asks for), `ToolUseWrapper` with ViGoRL's call format
 * (`VIGORL_TOOL_FORMAT`), its crop budget (`vigorlCropBudget`) and the registered
 * `search_coordinate` tool (multi-turn only), and the reward set (`GroundedRewardSetWrapper`). The
 * tool comes from the tool registry: register it, with its factory, before the first reset
 * (`registerTool(pointCropTool, {create: createPointCropTool})` from @saccade/tool-zoom; the runner
 * does it for the envs that say `saccade.usesTools`).
 */
export class GroundedSearchEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly source: TaskSource;
  readonly mode: GroundedMode;
  readonly rewardSet: GroundedRewardSetName;
  readonly maxCrops: number;
  readonly maxTurns: number;
  /** The frame the model writes points in (`seenSize`, `cells`). */
  readonly frame: PointFrame;
  readonly #taskEnv: GroundedTaskEnv;
  readonly #rewards: GroundedRewardSetWrapper;

  constructor(options: GroundedSearchEnvOptions) {
    const given = (['taskFile', 'tasks', 'source'] as const).filter((key) => options?.[key] !== undefined);
    if (given.length !== 1) {
      throw new InvalidArgumentError({ argument: 'options', expected: 'exactly one of {taskFile}, {tasks} or {source}', value: given.length === 0 ? options : given });
    }
    this.id = options.id ?? 'saccade/GroundedSearch-v1';
    this.mode = options.mode ?? 'multi-turn';
    if (!MODES.includes(this.mode)) throw new InvalidArgumentError({ argument: 'mode', expected: MODES.join(' | '), value: this.mode });
    this.rewardSet = options.rewardSet ?? (this.mode === 'single-turn' ? 'vigorl-single-turn' : 'vigorl-multi-turn');
    if (!GROUNDED_REWARD_SETS.includes(this.rewardSet)) throw new InvalidArgumentError({ argument: 'rewardSet', expected: GROUNDED_REWARD_SETS.join(' | '), value: this.rewardSet });
    if (GROUNDED_REWARD_SET_INFO[this.rewardSet].mode !== this.mode) {
      throw new InvalidArgumentError({ argument: 'rewardSet', expected: `a reward set for ${this.mode} episodes`, value: this.rewardSet });
    }
    this.maxCrops = options.maxCrops ?? 4;
    if (!Number.isSafeInteger(this.maxCrops) || this.maxCrops < 0) throw new InvalidArgumentError({ argument: 'maxCrops', expected: 'an integer ≥ 0', value: this.maxCrops });
    this.maxTurns = options.maxTurns ?? this.maxCrops + 2;
    if (!Number.isSafeInteger(this.maxTurns) || this.maxTurns < 1) throw new InvalidArgumentError({ argument: 'maxTurns', expected: 'a positive integer', value: this.maxTurns });
    const preset = options.preset ?? 'auto';
    if (preset !== 'auto' && !POINT_CROP_PRESET_NAMES.includes(preset)) {
      throw new InvalidArgumentError({ argument: 'preset', expected: `${POINT_CROP_PRESET_NAMES.join(' | ')} | auto`, value: preset });
    }
    const crop = options.crop ?? {};
    // Bad overrides fail here, not at the first reset.
    resolveCropSettings('web', crop);
    this.frame = checkPointFrame({ ...(options.seenSize === undefined ? {} : { seenSize: options.seenSize }), ...(options.cells === undefined ? {} : { cells: options.cells }) });
    const checker = typeof options.checker === 'string' ? getAnswerChecker(options.checker) : options.checker;
    this.source = options.source ?? (options.taskFile !== undefined ? new TaskFileSource(options.taskFile) : new ArrayTaskSource(options.tasks!, { baseDirectory: options.baseDirectory }));
    this.#taskEnv = new GroundedTaskEnv({ source: this.source, ownsSource: options.source === undefined, mode: this.mode, preset, crop, maxCrops: this.maxCrops, frame: this.frame, id: this.id, ...(checker === undefined ? {} : { checker }) });
    // One call per turn, so the tool-use wrapper's own call limit never binds before the turn limit.
    const played: Env =
      this.mode === 'multi-turn'
        ? new ToolUseWrapper(this.#taskEnv, { tools: [SEARCH_COORDINATE], format: VIGORL_TOOL_FORMAT, budget: vigorlCropBudget(this.maxCrops), maxTurns: this.maxTurns, maxToolCalls: this.maxTurns })
        : this.#taskEnv;
    this.#rewards = new GroundedRewardSetWrapper(played, { task: this.#taskEnv, rewardSet: this.rewardSet, maxCrops: this.maxCrops, maxTurns: this.maxTurns, frame: this.frame });
  }

  systemPrompt(): string {
    return this.#rewards.systemPrompt();
  }

  /** The current task; throws before the first reset. */
  get task(): VisionQATask {
    return this.#taskEnv.episode('task').task;
  }

  /** The current image's size, as the crop tool and the grounding checks see it. */
  get imageSize(): ImageSize {
    return { ...this.#taskEnv.episode('imageSize').size };
  }

  /** The current episode's crop settings (the preset, resolved for the task). */
  get cropSettings(): CropSettings {
    return { ...this.#taskEnv.episode('cropSettings').crop };
  }

  /** Crops taken so far in this episode, as the model wrote their points (in its frame). */
  get crops(): Point[] {
    this.#taskEnv.episode('crops');
    return this.#rewards.crops;
  }

  /** The checker the current task is scored with. */
  get checker(): AnswerChecker {
    return this.#taskEnv.checker('checker');
  }

  reset(options?: EnvResetOptions): Promise<ResetResult> {
    return this.#rewards.reset(options);
  }

  step(action: string): Promise<StepResult> {
    return this.#rewards.step(action);
  }

  /**
   * A correct response for the current state, when the task says where its answer lies: single
   * turn, one step at the target's centre and the answer; multi turn, a crop there first. The
   * point is written in the env's frame, as the crop tool's `lookAt` writes it.
   */
  oracleResponse(): string {
    const episode = this.#taskEnv.episode('oracleResponse()');
    const box = targetBoxOf(episode.task);
    const { size } = episode;
    const original = box === undefined ? { x: Math.floor(size.width / 2), y: Math.floor(size.height / 2) } : { x: (box[0] + box[2]) / 2, y: (box[1] + box[3]) / 2 };
    const centre = pointInFrame(original, this.frame, size);
    const answer = oracleAnswer(episode.task);
    const step = `The answer is at (${centre.x}, ${centre.y}).`;
    if (this.mode === 'multi-turn' && this.#rewards.crops.length === 0 && this.maxCrops > 0) {
      return `<think>${step}</think>\n${searchCoordinateCall(centre)}`;
    }
    return `<think>\n${step}\n</think>\n<answer>${answer}</answer>`;
  }

  close(): Promise<void> {
    return this.#rewards.close();
  }

  /** Scores the episode so far with the reward set (what the last step's reward is). */
  score(): GroundedReward {
    return this.#rewards.score();
  }
}
