import {
  ArrayTaskSource,
  choiceLetter,
  findAnswerChecker,
  formatTemplate,
  getAnswerChecker,
  drawTask,
  OUTPUT_FORMATS,
  oracleAnswer,
  parseFinalAnswer,
  parseFormattedResponse,
  TaskFileError,
  TaskFileSource,
  taskPrompt,
  VISION_QA_ENV_OPTION_NAMES,
  VISION_QA_ID,
  vqaSystemPrompt,
  type AnswerCheck,
  type AnswerChecker,
  type AnswerFormat,
  type TaskSource,
  type VisionQATask,
  type VisionQATaskInput,
} from '@saccade/core';
import { loadImage } from '@saccade/image';
import {
  IMAGE_PLACEHOLDER,
  InvalidArgumentError,
  InvalidStateError,
  quoteModelText,
  type Env,
  type EnvInfo,
  type EnvResetOptions,
  type ImageData,
  type Observation,
  type ResetResult,
  type StepResult,
  type TextActionSpace,
} from '@saccade/spec';
import { detectRepetition, type RepetitionReport } from './detect-repetition';
import { formatErrorFeedback, wrongAnswerFeedback } from './reflection-feedback';
import { DEFAULT_VISTA_REWARDS, REWARD_SETS, vistaR1Terms, type RewardSet, type TurnRecord, type VistaRewards } from './vista-rewards';

// The option names and the registry id live in @saccade/core, where envs that play their own task
// source in this env through the registry read them; re-exported here, where they were first defined.
export { VISION_QA_ENV_OPTION_NAMES } from '@saccade/core';

/** Options of {@link VisionQAEnv}: where its tasks come from, the answer format, rewards, attempts and checker. */
export interface VisionQAEnvOptions {
  /** A JSONL task file (see docs/vqa.md). One of `taskFile`, `tasks`, `source`. */
  taskFile?: string;
  /** Tasks in memory; relative image paths are resolved against `baseDirectory`. */
  tasks?: readonly VisionQATaskInput[];
  /** Any task source (a generator, a custom store). */
  source?: TaskSource;
  /** Folder for relative image paths of in-memory `tasks` (default: the working directory). */
  baseDirectory?: string;
  /** How answers are read: `'final-answer'` (VISTA-Gym: `<answer>…</answer>`, `## FINAL_ANSWER:` or `Answer:`; default) or a strict VAGEN format such as `'free_think'`. */
  format?: AnswerFormat;
  /** Turns per episode (default 1: single turn). With more, a wrong answer gets VISTA's reflection feedback. */
  maxAttempts?: number;
  /** A response without a readable answer may be retried while attempts remain (default true). */
  retryOnFormatError?: boolean;
  /** `'vista'` (per-turn VISTA-Gym rewards; default) or `'vista-r1'` (the paper's trajectory reward). */
  rewardSet?: RewardSet;
  /** Overrides of the VISTA reward values. */
  rewards?: Partial<VistaRewards>;
  /** Add the repetition penalty (R_rep: 0, −1.5, −2, −3) as a `repetition` term to the VISTA set (default false; always part of VISTA-R1's). */
  repetitionPenalty?: boolean;
  /** Direction hints in reflection feedback: "the correct answer is higher than 40" (default true). */
  hints?: boolean;
  /** A checker (or a dataset / answer-type name) for every task; default: the task's dataset, else its answer type. */
  checker?: string | AnswerChecker;
  /** Show the images again with each feedback (default false: the conversation already has them). */
  resendImages?: boolean;
  /** Refuse images with more pixels than this (default: @saccade/image's 64 megapixels). */
  maxPixels?: number;
  /** The env id (default `saccade/VisionQA-v1`). */
  id?: string;
}

interface Settings {
  format: AnswerFormat;
  maxAttempts: number;
  retryOnFormatError: boolean;
  rewardSet: RewardSet;
  rewards: VistaRewards;
  repetitionPenalty: boolean;
  hints: boolean;
  checker: AnswerChecker | undefined;
  resendImages: boolean;
  maxPixels: number | undefined;
}

interface Episode {
  task: VisionQATask;
  index: number;
  seed: number;
  images: ImageData[];
  turns: TurnRecord[];
  done: boolean;
}

const FORMATS: readonly AnswerFormat[] = ['final-answer', ...OUTPUT_FORMATS];

/** Rounds away float noise (−0.05 − 1.5 = −1.55, not −1.5500000000000003). */
const round = (value: number) => Math.round(value * 1e9) / 1e9;

/**
 * Vision question answering over a task source, with VISTA-Gym's answer checking, reflection and
 * rewards. A seed picks the task (`seed mod size`), so the same seed gives the same episode.
 * One turn by default; with `maxAttempts > 1`, a wrong answer gets feedback (hints, attempts left),
 * reward 0, and the episode goes on.
 */
export class VisionQAEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly source: TaskSource;
  readonly #ownsSource: boolean;
  readonly #settings: Settings;
  #episode: Episode | undefined;

  constructor(options: VisionQAEnvOptions) {
    const id = options?.id ?? VISION_QA_ID;
    // An option this env does not take (a typo) would otherwise be ignored.
    for (const [name, value] of Object.entries(options ?? {})) {
      if (value !== undefined && !VISION_QA_ENV_OPTION_NAMES.includes(name)) throw new InvalidArgumentError({ argument: name, expected: `an option of ${id}: ${VISION_QA_ENV_OPTION_NAMES.join(', ')}`, value });
    }
    const given = (['taskFile', 'tasks', 'source'] as const).filter((key) => options?.[key] !== undefined);
    if (given.length !== 1) {
      throw new InvalidArgumentError({
        argument: 'options',
        expected: 'exactly one of {taskFile}, {tasks} or {source}',
        value: given.length === 0 ? options : given,
        message: `Invalid argument options: expected exactly one of {taskFile}, {tasks} or {source}, received ${given.length === 0 ? 'none' : given.join(' and ')}.`,
      });
    }
    this.id = id;
    this.#ownsSource = options.source === undefined;
    this.source = options.source ?? (options.taskFile !== undefined ? new TaskFileSource(options.taskFile) : new ArrayTaskSource(options.tasks!, { baseDirectory: options.baseDirectory }));
    this.#settings = resolveSettings(options);
  }

  systemPrompt(): string {
    return vqaSystemPrompt(this.#settings.format);
  }

  /** The current task; throws before the first reset. */
  get task(): VisionQATask {
    return this.#current('task').task;
  }

  async reset({ seed, options }: EnvResetOptions = {}): Promise<ResetResult> {
    const { task, index, seed: episodeSeed } = await drawTask(this.source, { ...(seed === undefined ? {} : { seed }), taskIndex: options?.taskIndex });
    const images = await this.#loadImages(task, index);
    this.#episode = { task, index, seed: episodeSeed, images, turns: [], done: false };
    const observation = { text: taskPrompt(task, this.#settings.format), images };
    return { observation, info: { ...this.#taskInfo(), attemptsLeft: this.#settings.maxAttempts } };
  }

  async step(action: string): Promise<StepResult> {
    const episode = this.#current();
    if (episode.done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    const { maxAttempts, retryOnFormatError, rewardSet, rewards, format } = this.#settings;
    const text = typeof action === 'string' ? action : '';
    const attempt = episode.turns.length + 1;
    const remaining = maxAttempts - attempt;
    const read = this.#readAnswer(text);
    const repetition: RepetitionReport | undefined = rewardSet === 'vista-r1' || this.#settings.repetitionPenalty ? detectRepetition(text) : undefined;
    const check: AnswerCheck | undefined = read.answer === undefined ? undefined : this.#checker(episode.task)(read.answer, episode.task);
    const correct = check?.correct === true;
    episode.turns.push({ wellFormed: read.wellFormed, repetitionPenalty: repetition?.penalty ?? 0, correct });

    let terms: Record<string, number>;
    let feedback: string;
    let terminated = false;
    let truncated = false;
    if (check !== undefined) {
      terms = correct ? { correct: rewards.correct } : { wrong: rewards.wrong };
      if (correct || remaining <= 0) {
        terminated = true;
        feedback = correct ? 'Your answer is correct.' : `Your answer '${shorten(read.answer!)}' is incorrect. No attempts remain.`;
      } else {
        feedback = wrongAnswerFeedback({ task: episode.task, prediction: read.answer!, remaining, hints: this.#settings.hints, format });
      }
    } else if (remaining <= 0) {
      truncated = true;
      terms = { truncated: rewards.truncated };
      feedback = `No answer was given within ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'} (${read.error}).`;
    } else if (retryOnFormatError) {
      terms = { formatError: rewards.formatErrorRetry };
      feedback = formatErrorFeedback({ error: read.error!, remaining, format });
    } else {
      terminated = true;
      terms = { formatError: rewards.formatError };
      feedback = `I could not read an answer from your response (${read.error}). The episode is over.`;
    }
    episode.done = terminated || truncated;
    if (rewardSet === 'vista-r1') terms = episode.done ? vistaR1Terms(episode.turns) : { repetition: 0, format: 0, correct: 0 };
    else if (repetition !== undefined) terms.repetition = repetition.penalty;

    const reward = round(Object.values(terms).reduce((sum, value) => sum + value, 0));
    const info: EnvInfo = {
      ...this.#taskInfo(),
      rewardTerms: terms,
      metrics: {
        success: correct,
        action_is_valid: read.answer !== undefined,
        format_correct: read.wellFormed,
        answer_score: check?.score ?? 0,
        attempt,
      },
      attempt,
      attemptsLeft: Math.max(0, remaining),
      prediction: read.answer ?? null,
    };
    if (check !== undefined) info.check = check;
    if (read.error !== undefined) info.formatError = read.error;
    if (repetition !== undefined) info.repetition = repetition.level;
    return { observation: this.#observation(feedback), reward, terminated, truncated, info };
  }

  /**
   * A correct response in the env's format (the right option's letter, the box's centre for a
   * click, the most common annotator answer). Oracle agents find this method through wrappers.
   */
  oracleResponse(): string {
    const answer = oracleAnswer(this.#current('oracleResponse()').task);
    const { format } = this.#settings;
    if (format === 'final-answer') return `<answer>${answer}</answer>`;
    const parts = formatTemplate(format).split('…');
    return parts.reduce((text, part, index) => text + (index === 0 ? '' : index === parts.length - 1 ? answer : 'I look at the image and read it.') + part, '');
  }

  /**
   * Free text in the env's format: the options' letters for a multiple-choice task, yes or no for
   * a yes/no task, else any answer of the task's type.
   */
  actionSpace(): TextActionSpace {
    const { task } = this.#current('actionSpace()');
    const format = this.#settings.format;
    if (task.answerType === 'multiple-choice' && task.choices !== undefined) return { kind: 'text', choices: task.choices.map((_, index) => choiceLetter(index)), answerType: task.answerType, format };
    if (task.answerType === 'yes-no') return { kind: 'text', choices: ['yes', 'no'], answerType: task.answerType, format };
    return { kind: 'text', answerType: task.answerType, format };
  }

  async close(): Promise<void> {
    this.#episode = undefined;
    if (this.#ownsSource) await this.source.close?.();
  }

  #current(operation = 'step()'): Episode {
    if (this.#episode === undefined) throw new InvalidStateError({ operation, expected: 'reset() to be called first', actual: 'no episode yet' });
    return this.#episode;
  }

  #taskInfo(): EnvInfo {
    const { task, index, seed } = this.#current();
    const info: EnvInfo = { taskId: task.id, dataset: task.dataset, taskFamily: task.taskFamily, taskIndex: index, seed };
    // Where the answer is in the first image (V*-style tasks): the tool-use wrapper scores looks with it.
    const isBox = (value: unknown): value is number[] => Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === 'number' && Number.isFinite(part));
    const box = task.metadata?.['targetBox'];
    if (isBox(box)) info.targetBox = [...box];
    // Every object the question names (a relation question's two), for an oracle that looks at each.
    const boxes = task.metadata?.['targetBoxes'];
    if (Array.isArray(boxes) && boxes.length > 0 && boxes.every(isBox)) info.targetBoxes = boxes.map((each) => [...each]);
    return info;
  }

  #checker(task: VisionQATask): AnswerChecker {
    return this.#settings.checker ?? findAnswerChecker(task.dataset) ?? getAnswerChecker(task.answerType);
  }

  #readAnswer(text: string): { answer?: string; wellFormed: boolean; error?: string } {
    const { format } = this.#settings;
    if (format === 'final-answer') {
      const found = parseFinalAnswer(text);
      if (found === undefined) return { wellFormed: false, error: 'expected <answer>…</answer>, "## FINAL_ANSWER: …" or "Answer: …"' };
      return { answer: found.answer, wellFormed: true };
    }
    const parsed = parseFormattedResponse(text, { format, separator: null });
    return parsed.formatCorrect ? { answer: parsed.answer!, wellFormed: true } : { wellFormed: false, error: parsed.error ?? 'the format is wrong' };
  }

  #observation(text: string): Observation {
    const images = this.#settings.resendImages ? this.#current().images : [];
    // Feedback quotes the model's answer, which may hold "<image>": only the env's own placeholders may stay.
    const feedback = text.replaceAll(IMAGE_PLACEHOLDER, '');
    return { text: images.length > 0 ? `${feedback}\n${images.map(() => IMAGE_PLACEHOLDER).join('\n')}` : feedback, images };
  }

  async #loadImages(task: VisionQATask, index: number): Promise<ImageData[]> {
    return Promise.all(
      task.images.map(async (image, position) => {
        if (typeof image !== 'string') return image;
        try {
          const loaded = await loadImage(image, this.#settings.maxPixels === undefined ? {} : { maxPixels: this.#settings.maxPixels });
          return { data: loaded.data, mediaType: loaded.mediaType, width: loaded.width, height: loaded.height } as ImageData;
        } catch (error) {
          throw new TaskFileError({
            file: task.location?.file ?? this.source.description,
            line: task.location?.line ?? index,
            field: `images[${position}]`,
            expected: 'a readable PNG, JPEG or WebP image',
            received: `${JSON.stringify(image)} (${(error as Error).message})`,
            cause: error,
          });
        }
      }),
    );
  }
}

function resolveSettings(options: VisionQAEnvOptions): Settings {
  const format = options.format ?? 'final-answer';
  if (!FORMATS.includes(format)) throw new InvalidArgumentError({ argument: 'format', expected: FORMATS.join(' | '), value: format });
  const maxAttempts = options.maxAttempts ?? 1;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new InvalidArgumentError({ argument: 'maxAttempts', expected: 'a positive integer', value: maxAttempts });
  const rewardSet = options.rewardSet ?? 'vista';
  if (!REWARD_SETS.includes(rewardSet)) throw new InvalidArgumentError({ argument: 'rewardSet', expected: REWARD_SETS.join(' | '), value: rewardSet });
  const rewards = { ...DEFAULT_VISTA_REWARDS, ...options.rewards };
  for (const [name, value] of Object.entries(rewards)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidArgumentError({ argument: `rewards.${name}`, expected: 'a finite number', value });
  }
  const checker = typeof options.checker === 'string' ? getAnswerChecker(options.checker) : options.checker;
  if (checker !== undefined && typeof checker !== 'function') throw new InvalidArgumentError({ argument: 'checker', expected: 'a checker function or a dataset name', value: checker });
  return {
    format,
    maxAttempts,
    retryOnFormatError: options.retryOnFormatError ?? true,
    rewardSet,
    rewards,
    repetitionPenalty: options.repetitionPenalty ?? false,
    hints: options.hints ?? true,
    checker,
    resendImages: options.resendImages ?? false,
    maxPixels: options.maxPixels,
  };
}

// Quoted back to the model: its placeholders must not become image slots.
const shorten = (text: string) => quoteModelText(text.length > 200 ? `${text.slice(0, 200)}…` : text);
