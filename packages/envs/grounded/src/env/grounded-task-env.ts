import {
  findAnswerChecker,
  getAnswerChecker,
  groundedTaskPrompt,
  drawTask,
  frameSize,
  multiTurnSystemPrompt,
  presetForTask,
  resolveCropSettings,
  SEARCH_COORDINATE,
  singleTurnSystemPrompt,
  targetBoxOf,
  TaskFileError,
  type AnswerChecker,
  type CropSettings,
  type ImageSize,
  type PointCropPresetName,
  type PointFrame,
  type TaskSource,
  type VisionQATask,
} from '@saccade/core';
import { loadImage, recordedImageSize } from '@saccade/image';
import { InvalidStateError, type Env, type EnvInfo, type EnvResetOptions, type ImageData, type ResetResult, type StepResult } from '@saccade/spec';

/** What the grounded task env serves: the tasks, the mode, the crop preset and the budget it announces. */
export interface GroundedTaskEnvOptions {
  source: TaskSource;
  /** Close the source with the env (it made it). */
  ownsSource: boolean;
  mode: 'single-turn' | 'multi-turn';
  /** The crop preset, or `auto`: `web` for click tasks, `visual-search` otherwise. */
  preset: PointCropPresetName | 'auto';
  crop: Partial<CropSettings>;
  maxCrops: number;
  /** The frame the model writes points in (the crop tool reads its calls in it). */
  frame: PointFrame;
  checker?: AnswerChecker;
  id: string;
}

interface Episode {
  task: VisionQATask;
  index: number;
  seed: number;
  image: ImageData;
  size: ImageSize;
  crop: CropSettings;
}

/**
 * The task half of the grounded search composition: a reset shows a task (its image, question and
 * choices) with ViGoRL's prompt and asks the tool-use wrapper for the crop of its preset
 * (`info.toolSettings.search_coordinate`); a step is the final response, which ends the episode
 * (the reward-set wrapper scores it). The crops themselves are `ToolUseWrapper`'s and the tool's.
 */
export class GroundedTaskEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly source: TaskSource;
  readonly #options: GroundedTaskEnvOptions;
  #episode: Episode | undefined;

  constructor(options: GroundedTaskEnvOptions) {
    this.#options = options;
    this.id = options.id;
    this.source = options.source;
  }

  systemPrompt(): string {
    const { frame } = this.#options;
    return this.#options.mode === 'single-turn' ? singleTurnSystemPrompt({ frame }) : multiTurnSystemPrompt({ maxCrops: this.#options.maxCrops, frame });
  }

  /** The current episode; throws before the first reset. */
  episode(operation = 'step()'): Readonly<Episode> {
    if (this.#episode === undefined) throw new InvalidStateError({ operation, expected: 'reset() to be called first', actual: 'no episode yet' });
    return this.#episode;
  }

  /** The checker the current task is scored with: the env's, else the task's dataset, else its answer type. */
  checker(operation = 'checker'): AnswerChecker {
    const { task } = this.episode(operation);
    return this.#options.checker ?? findAnswerChecker(task.dataset) ?? getAnswerChecker(task.answerType);
  }

  /** The task's identity in the info of every step. */
  taskInfo(): EnvInfo {
    const { task, index, seed } = this.episode();
    return { taskId: task.id, dataset: task.dataset, taskFamily: task.taskFamily, taskIndex: index, seed };
  }

  async reset({ seed, options }: EnvResetOptions = {}): Promise<ResetResult> {
    const { task, index, seed: episodeSeed } = await drawTask(this.source, { ...(seed === undefined ? {} : { seed }), taskIndex: options?.taskIndex });
    const image = await this.#loadImage(task, index);
    const dimensions = await recordedImageSize(image);
    const preset = this.#options.preset === 'auto' ? presetForTask(task) : this.#options.preset;
    const crop = resolveCropSettings(preset, this.#options.crop);
    this.#episode = { task, index, seed: episodeSeed, image, size: dimensions, crop };
    const multiTurn = this.#options.mode === 'multi-turn';
    const info: EnvInfo = { ...this.taskInfo(), imageBudget: multiTurn ? this.#options.maxCrops + 1 : 1, cropsLeft: multiTurn ? this.#options.maxCrops : 0, imageSize: dimensions };
    if (multiTurn) {
      // The crop of this task's preset, made by the tool's registered factory (ToolUseWrapper reads this), in
      // the env's point frame always: the env scores the points in it, whatever settings the tool was registered with.
      const { frame } = this.#options;
      info.toolSettings = { [SEARCH_COORDINATE]: { offset: crop.offset, cropSize: crop.cropSize, dot: crop.dot, seenSize: { ...frameSize(frame, dimensions) }, cells: frame.cells ?? false } };
      // Where the answer lies, when the task says: ToolUseWrapper marks the crops that hold it (metric target_hit).
      const box = targetBoxOf(task);
      if (box !== undefined) info.targetBox = [...box];
    }
    return { observation: { text: groundedTaskPrompt(task), images: [image] }, info };
  }

  /** The final response: the episode ends here; the reward-set wrapper scores it. */
  async step(): Promise<StepResult> {
    const info = this.taskInfo();
    return { observation: { text: '', images: [] }, reward: 0, terminated: true, truncated: false, info };
  }

  async close(): Promise<void> {
    this.#episode = undefined;
    if (this.#options.ownsSource) await this.source.close?.();
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
