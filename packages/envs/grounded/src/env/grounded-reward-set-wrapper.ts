import { callPoint, EnvWrapper, frameSize, pointToOriginal, type Point, type PointFrame, type ToolCallRecord } from '@saccade/core';
import { IMAGE_PLACEHOLDER, InvalidStateError, quoteModelText, type Env, type EnvInfo, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { scoreGroundedEpisode, type GroundedReward, type GroundedRewardSetName } from '../rewards/grounded-reward-sets';
import type { GroundedTaskEnv } from './grounded-task-env';

/** The reward set, the budget it scores against and the turn limit it reports. */
export interface GroundedRewardSetWrapperOptions {
  /** The task env under the wrapped chain: the task, its image size and checker. */
  task: GroundedTaskEnv;
  rewardSet: GroundedRewardSetName;
  maxCrops: number;
  maxTurns: number;
  /** The frame the model writes points in: `<think>` points are checked on it, crops scored in pixels of the original. */
  frame?: PointFrame;
}

/** ToolUseWrapper's `target_hit` metric (a crop held the task's target), when the step has it. */
function targetHit(metrics: unknown): { target_hit?: boolean } {
  const hit = (metrics as Record<string, unknown> | undefined)?.['target_hit'];
  return typeof hit === 'boolean' ? { target_hit: hit } : {};
}

const isRecordArray = (value: unknown): value is ToolCallRecord[] => Array.isArray(value) && value.every((entry) => typeof entry === 'object' && entry !== null);

/**
 * The reward half of the grounded search composition: it keeps the episode's responses and the
 * crops that ran (`info.toolCalls` of the tool-use wrapper below it), and scores the whole episode
 * with a grounded reward set on its last step (the answer, the crop past the budget or the turn
 * limit): the reward, its terms and signals, and feedback on the answer. Earlier steps give 0 and
 * say how many crops are left (`info.cropsLeft`).
 */
export class GroundedRewardSetWrapper extends EnvWrapper {
  readonly rewardSet: GroundedRewardSetName;
  readonly #options: GroundedRewardSetWrapperOptions;
  #responses: string[] = [];
  #crops: Point[] = [];
  #started = false;
  #done = false;

  constructor(env: Env, options: GroundedRewardSetWrapperOptions) {
    super(env);
    this.#options = options;
    this.rewardSet = options.rewardSet;
  }

  /** Crops taken so far in this episode. */
  get crops(): Point[] {
    return this.#crops.map((point) => ({ ...point }));
  }

  override async reset(options?: EnvResetOptions): Promise<ResetResult> {
    const result = await this.env.reset(options);
    this.#responses = [];
    this.#crops = [];
    this.#started = true;
    this.#done = false;
    return result;
  }

  override async step(action: string): Promise<StepResult> {
    if (this.#started && this.#done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    const result = await this.env.step(action);
    this.#responses.push(typeof action === 'string' ? action : '');
    const records = isRecordArray(result.info.toolCalls) ? result.info.toolCalls : [];
    for (const record of records) {
      const point = record.ok && record.name !== undefined && record.arguments !== undefined ? callPoint({ name: record.name, arguments: record.arguments }) : undefined;
      if (point !== undefined) this.#crops.push(point);
    }
    if (result.terminated || result.truncated) return this.#final(result);
    const valid = result.info.valid === true;
    const info: EnvInfo = {
      ...result.info,
      ...this.#options.task.taskInfo(),
      rewardTerms: {},
      metrics: { action_is_valid: valid, crops: this.#crops.length, ...targetHit(result.info.metrics) },
      valid,
      turn: this.#responses.length,
      cropsLeft: this.#options.maxCrops - this.#crops.length,
    };
    delete info.toolBudgetLeft;
    return { ...result, reward: 0, info };
  }

  /** Scores the episode so far with the reward set (what the last step's reward is). */
  score(): GroundedReward {
    const { task: taskEnv, rewardSet, maxCrops, frame = {} } = this.#options;
    const { task, size } = taskEnv.episode('score()');
    return scoreGroundedEpisode(rewardSet, {
      responses: this.#responses,
      // Points as the model wrote them lie on the frame; crops are apart by pixels of the original.
      imageSize: frameSize(frame, size),
      target: task,
      answerType: task.answerType,
      checker: taskEnv.checker(),
      maxCrops,
      crops: this.#crops.map((point) => pointToOriginal(point, frame, size)),
    });
  }

  #final(result: StepResult): StepResult {
    const scored = this.score();
    this.#done = true;
    const correct = scored.signals.accuracy === 1;
    const truncatedBy = result.info.truncatedBy;
    // The budget's own note (a crop past it), the turn limit, or what became of the answer.
    const feedback =
      truncatedBy === 'tool-budget'
        ? result.observation.text
        : truncatedBy === 'tool-use-turn-limit'
          ? `The turn limit of ${this.#options.maxTurns} is reached without an answer.`
          : scored.answer === undefined
            ? 'No answer could be read; the episode is over.'
            : correct
              ? 'Your answer is correct.'
              : `Your answer '${quoteModelText(scored.answer.slice(0, 200))}' is incorrect.`;
    const metrics: Record<string, number | boolean> = {
      success: correct,
      format_correct: scored.signals.format === 1,
      action_is_valid: scored.answer !== undefined,
    };
    if (scored.signals.grounded !== undefined) metrics.grounded = scored.signals.grounded === 1;
    if (scored.signals.crops !== undefined) metrics.crops = scored.signals.crops;
    if (scored.signals.distinctCrops !== undefined) metrics.distinct_crops = scored.signals.distinctCrops;
    Object.assign(metrics, targetHit(result.info.metrics));
    const info: EnvInfo = {
      ...this.#options.task.taskInfo(),
      rewardTerms: scored.terms,
      metrics,
      rewardSet: this.rewardSet,
      signals: { ...scored.signals },
      points: scored.points.map((point) => [point.x, point.y]),
      prediction: scored.answer ?? null,
      turn: this.#responses.length,
    };
    if (scored.problems.length > 0) info.problems = scored.problems;
    return { observation: { text: feedback.replaceAll(IMAGE_PLACEHOLDER, ''), images: [] }, reward: scored.reward, terminated: result.terminated, truncated: result.truncated, info };
  }
}
