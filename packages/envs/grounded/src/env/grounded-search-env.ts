import {
  ArrayTaskSource,
  findAnswerChecker,
  getAnswerChecker,
  indexForSeed,
  oracleAnswer,
  runTool,
  TaskFileError,
  TaskFileSource,
  type AnswerChecker,
  type Point,
  type TaskSource,
  type VisionQATask,
  type VisionQATaskInput,
} from '@saccade/core';
import { imageSize, loadImage } from '@saccade/image';
import {
  IMAGE_PLACEHOLDER,
  InvalidArgumentError,
  quoteModelText,
  InvalidStateError,
  type Env,
  type EnvInfo,
  type EnvResetOptions,
  type ImageData,
  type Observation,
  type ResetResult,
  type StepResult,
  type Tool,
} from '@saccade/spec';
import { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, scoreGroundedEpisode, type GroundedReward, type GroundedRewardSetName } from '../rewards/grounded-reward-sets';
import { parseGroundedTurn, SEARCH_COORDINATE, searchCoordinateCall } from '../rewards/grounded-turn';
import type { ImageSize } from '../rewards/grounding-checks';
import { createGroundedCropTool, POINT_CROP_PRESET_NAMES, presetForTask, resolveCropSettings, type CropSettings, type PointCropPresetName } from '@saccade/tool-zoom';
import { budgetSpentNote, cropObservation, FORCED_ANSWER_PREFIX, groundedTaskPrompt, multiTurnSystemPrompt, singleTurnSystemPrompt } from './prompts';
import { targetBoxOf } from './target-box';

/** Multi-turn: crops around points, then the answer; single-turn: one grounded response. */
export type GroundedMode = 'single-turn' | 'multi-turn';

/** Where the tasks come from, the mode, the crop preset and budget, and the reward set. */
export interface GroundedSearchEnvOptions {
  /** A task file in @saccade/env-vqa's format (V*Bench, ScreenSpot, …). One of `taskFile`, `tasks`, `source`. */
  taskFile?: string;
  /** Tasks in memory. */
  tasks?: readonly VisionQATaskInput[];
  /** Any env-vqa task source: a procedural generator (`createVisualSearchSource()`), a file, a store. */
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
  /** Crops per episode (default 4: ViGoRL's image budget of the original + 4 crops). */
  maxCrops?: number;
  /** Turns per episode, crops and failed turns included (default maxCrops + 2). */
  maxTurns?: number;
  /** A checker (or a dataset / answer-type name) for every task; default: the task's dataset, else its answer type. */
  checker?: string | AnswerChecker;
  /** The env id (default `saccade/GroundedSearch-v1`). */
  id?: string;
}

interface Episode {
  task: VisionQATask;
  index: number;
  seed: number;
  image: ImageData;
  size: ImageSize;
  crop: CropSettings;
  tool: Tool;
  responses: string[];
  crops: Point[];
  done: boolean;
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
 * give 0. Works over any env-vqa task source: the procedural visual-search and GUI-grounding
 * generators, V*Bench or ScreenSpot task files.
 */
export class GroundedSearchEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly source: TaskSource;
  readonly mode: GroundedMode;
  readonly rewardSet: GroundedRewardSetName;
  readonly maxCrops: number;
  readonly maxTurns: number;
  readonly #preset: PointCropPresetName | 'auto';
  readonly #cropOverrides: Partial<CropSettings>;
  readonly #checker: AnswerChecker | undefined;
  readonly #ownsSource: boolean;
  readonly #tools = new Map<string, Tool>();
  #episode: Episode | undefined;

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
    this.#preset = options.preset ?? 'auto';
    if (this.#preset !== 'auto' && !POINT_CROP_PRESET_NAMES.includes(this.#preset)) {
      throw new InvalidArgumentError({ argument: 'preset', expected: `${POINT_CROP_PRESET_NAMES.join(' | ')} | auto`, value: this.#preset });
    }
    this.#cropOverrides = options.crop ?? {};
    // Bad overrides fail here, not at the first reset.
    resolveCropSettings('web', this.#cropOverrides);
    this.#checker = typeof options.checker === 'string' ? getAnswerChecker(options.checker) : options.checker;
    this.#ownsSource = options.source === undefined;
    this.source = options.source ?? (options.taskFile !== undefined ? new TaskFileSource(options.taskFile) : new ArrayTaskSource(options.tasks!, { baseDirectory: options.baseDirectory }));
  }

  systemPrompt(): string {
    return this.mode === 'single-turn' ? singleTurnSystemPrompt() : multiTurnSystemPrompt({ maxCrops: this.maxCrops });
  }

  /** The current task; throws before the first reset. */
  get task(): VisionQATask {
    return this.#current('task').task;
  }

  /** The current image's size, as the crop tool and the grounding checks see it. */
  get imageSize(): ImageSize {
    return { ...this.#current('imageSize').size };
  }

  /** The current episode's crop settings (the preset, resolved for the task). */
  get cropSettings(): CropSettings {
    return { ...this.#current('cropSettings').crop };
  }

  /** Crops taken so far in this episode. */
  get crops(): Point[] {
    return this.#current('crops').crops.slice();
  }

  /** The checker the current task is scored with. */
  get checker(): AnswerChecker {
    const { task } = this.#current('checker');
    return this.#checker ?? findAnswerChecker(task.dataset) ?? getAnswerChecker(task.answerType);
  }

  async reset({ seed, options }: EnvResetOptions = {}): Promise<ResetResult> {
    const size = await this.source.size();
    const requested = options?.taskIndex;
    if (requested !== undefined && (!Number.isInteger(requested) || (requested as number) < 0 || (requested as number) >= size)) {
      throw new InvalidArgumentError({ argument: 'options.taskIndex', expected: `an integer from 0 to ${size - 1}`, value: requested });
    }
    const episodeSeed = seed ?? Math.floor(Math.random() * 2 ** 31);
    const index = (requested as number | undefined) ?? indexForSeed(episodeSeed, size);
    const task = await this.source.get(index);
    const image = await this.#loadImage(task, index);
    const dimensions = image.width !== undefined && image.height !== undefined ? { width: image.width, height: image.height } : await imageSize(image);
    const preset = this.#preset === 'auto' ? presetForTask(task) : this.#preset;
    const crop = resolveCropSettings(preset, this.#cropOverrides);
    const toolKey = JSON.stringify(crop);
    let tool = this.#tools.get(toolKey);
    if (tool === undefined) {
      tool = createGroundedCropTool(preset, this.#cropOverrides);
      this.#tools.set(toolKey, tool);
    }
    this.#episode = { task, index, seed: episodeSeed, image, size: dimensions, crop, tool, responses: [], crops: [], done: false };
    return {
      observation: { text: groundedTaskPrompt(task), images: [image] },
      info: { ...this.#taskInfo(), imageBudget: this.mode === 'multi-turn' ? this.maxCrops + 1 : 1, cropsLeft: this.mode === 'multi-turn' ? this.maxCrops : 0, imageSize: dimensions },
    };
  }

  async step(action: string): Promise<StepResult> {
    const episode = this.#current();
    if (episode.done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    const text = typeof action === 'string' ? action : '';
    episode.responses.push(text);
    if (this.mode === 'single-turn') return this.#final(episode, { truncated: false });

    const turn = parseGroundedTurn(text, { answerType: episode.task.answerType });
    if (turn.kind === 'answer') return this.#final(episode, { truncated: false });
    const turnLimit = episode.responses.length >= this.maxTurns;
    if (turn.kind === 'tool' && episode.crops.length >= this.maxCrops) {
      return this.#final(episode, { truncated: true, note: `No crops remain (the budget is the original and ${this.maxCrops} crop${this.maxCrops === 1 ? '' : 's'}); the episode ends without an answer.` });
    }
    let observation: Observation;
    let valid = false;
    if (turn.kind === 'tool') {
      const call = turn.call!;
      if (call.name !== SEARCH_COORDINATE) {
        observation = this.#error(`unknown tool "${call.name.slice(0, 60)}"; the tool is ${SEARCH_COORDINATE}.`);
      } else {
        const run = await runTool(episode.tool, call.arguments, { images: [episode.image], timeoutMs: 30_000 });
        if (run.ok && (run.result.images?.length ?? 0) > 0) {
          valid = true;
          episode.crops.push(turn.point!);
          const spent = episode.crops.length >= this.maxCrops;
          const text = `${cropObservation({ dot: episode.crop.dot !== false })}${spent ? `\n${budgetSpentNote(this.maxCrops)}` : ''}`;
          observation = { text, images: [run.result.images![0]!] };
        } else {
          observation = this.#error(run.ok ? 'the crop returned no image.' : `${run.message.replace(/\.$/, '')}.`);
        }
      }
    } else {
      observation = this.#error(`${turn.error ?? 'no tool call or answer could be read'}.`);
    }
    if (turnLimit) {
      return this.#final(episode, { truncated: true, note: `The turn limit of ${this.maxTurns} is reached without an answer.` });
    }
    const cropsLeft = this.maxCrops - episode.crops.length;
    const info: EnvInfo = {
      ...this.#taskInfo(),
      rewardTerms: {},
      metrics: { action_is_valid: valid, crops: episode.crops.length },
      valid,
      turn: episode.responses.length,
      cropsLeft,
    };
    if (cropsLeft === 0) info.forcedPrefix = FORCED_ANSWER_PREFIX;
    if (turn.error !== undefined) info.formatError = turn.error;
    return { observation, reward: 0, terminated: false, truncated: false, info };
  }

  /**
   * A correct response for the current state, when the task says where its answer lies: single
   * turn, one step at the target's centre and the answer; multi turn, a crop there first.
   */
  oracleResponse(): string {
    const episode = this.#current('oracleResponse()');
    const box = targetBoxOf(episode.task);
    const centre = box === undefined ? { x: Math.floor(episode.size.width / 2), y: Math.floor(episode.size.height / 2) } : { x: Math.round((box[0] + box[2]) / 2), y: Math.round((box[1] + box[3]) / 2) };
    const answer = oracleAnswer(episode.task);
    const step = `The answer is at (${centre.x}, ${centre.y}).`;
    if (this.mode === 'multi-turn' && episode.crops.length === 0 && this.maxCrops > 0) {
      return `<think>${step}</think>\n${searchCoordinateCall(centre)}`;
    }
    return `<think>\n${step}\n</think>\n<answer>${answer}</answer>`;
  }

  async close(): Promise<void> {
    this.#episode = undefined;
    if (this.#ownsSource) await this.source.close?.();
  }

  /** Scores the episode so far with the reward set (what the last step's reward is). */
  score(): GroundedReward {
    const episode = this.#current('score()');
    const { task, size, responses, crops } = episode;
    return scoreGroundedEpisode(this.rewardSet, {
      responses,
      imageSize: size,
      target: task,
      answerType: task.answerType,
      checker: this.checker,
      maxCrops: this.maxCrops,
      crops,
    });
  }

  #final(episode: Episode, { truncated, note }: { truncated: boolean; note?: string }): StepResult {
    const scored = this.score();
    episode.done = true;
    const correct = scored.signals.accuracy === 1;
    const feedback = note ?? (scored.answer === undefined ? 'No answer could be read; the episode is over.' : correct ? 'Your answer is correct.' : `Your answer '${quoteModelText(scored.answer.slice(0, 200))}' is incorrect.`);
    const metrics: Record<string, number | boolean> = {
      success: correct,
      format_correct: scored.signals.format === 1,
      action_is_valid: scored.answer !== undefined,
    };
    if (scored.signals.grounded !== undefined) metrics.grounded = scored.signals.grounded === 1;
    if (scored.signals.crops !== undefined) metrics.crops = scored.signals.crops;
    if (scored.signals.distinctCrops !== undefined) metrics.distinct_crops = scored.signals.distinctCrops;
    const info: EnvInfo = {
      ...this.#taskInfo(),
      rewardTerms: scored.terms,
      metrics,
      rewardSet: this.rewardSet,
      signals: { ...scored.signals },
      points: scored.points.map((point) => [point.x, point.y]),
      prediction: scored.answer ?? null,
      turn: episode.responses.length,
    };
    if (scored.problems.length > 0) info.problems = scored.problems;
    return { observation: { text: feedback.replaceAll(IMAGE_PLACEHOLDER, ''), images: [] }, reward: scored.reward, terminated: !truncated, truncated, info };
  }

  #error(message: string): Observation {
    return { text: `<observation>\nError: ${message.replaceAll(IMAGE_PLACEHOLDER, '')}\n</observation>`, images: [] };
  }

  #current(operation = 'step()'): Episode {
    if (this.#episode === undefined) throw new InvalidStateError({ operation, expected: 'reset() to be called first', actual: 'no episode yet' });
    return this.#episode;
  }

  #taskInfo(): EnvInfo {
    const { task, index, seed } = this.#current();
    return { taskId: task.id, dataset: task.dataset, taskFamily: task.taskFamily, taskIndex: index, seed };
  }

  async #loadImage(task: VisionQATask, index: number): Promise<ImageData> {
    const image = task.images[0];
    if (image === undefined) {
      throw new TaskFileError({ file: task.location?.file ?? this.source.description, line: task.location?.line ?? index, field: 'images', expected: 'one image to search', received: 'no image' });
    }
    if (typeof image !== 'string') return image;
    try {
      const loaded = await loadImage(image);
      return { data: loaded.data, mediaType: loaded.mediaType, width: loaded.width, height: loaded.height };
    } catch (error) {
      throw new TaskFileError({
        file: task.location?.file ?? this.source.description,
        line: task.location?.line ?? index,
        field: 'images[0]',
        expected: 'a readable PNG, JPEG or WebP image',
        received: `${JSON.stringify(image)} (${(error as Error).message})`,
        cause: error,
      });
    }
  }
}
