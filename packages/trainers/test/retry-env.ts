import { registerEnv } from '@saccade/core';
import { quoteModelText, type Env, type ImageData, type Observation, type ResetResult, type StepResult } from '@saccade/spec';
import { colourAt, COLOURS, encodeSolidPng } from './colour-steps-env';

// An env of the tests' own whose episodes outgrow a model's context: every wrong answer is quoted
// back with the question and the picture again, as a retried invalid call is, until the turns run out.

export const RETRY_ID = 'test/Retry-v1';

/** Shows a square and asks its colour; a wrong answer gets feedback quoting it and another try. */
export class RetryEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = RETRY_ID;
  #seed = 0;
  #turn = 0;
  readonly turns: number;
  readonly imageSize: number;
  /** From this many answers on, the env forces `<answer>` at the start of the next one (info.forcedPrefix, as ViGoRL's final answer). */
  readonly forcedAnswerFrom: number;

  constructor(options: { turns?: number; imageSize?: number; forcedAnswerFrom?: number } = {}) {
    this.turns = options.turns ?? 6;
    this.imageSize = options.imageSize ?? 16;
    this.forcedAnswerFrom = options.forcedAnswerFrom ?? Infinity;
  }

  systemPrompt(): string {
    return 'Name the colour of the square as <answer>colour</answer>.';
  }

  async reset(options: { seed?: number } = {}): Promise<ResetResult> {
    this.#seed = options.seed ?? 0;
    this.#turn = 0;
    return { observation: await this.#observation('Which colour is the square?'), info: {} };
  }

  async step(action: string): Promise<StepResult> {
    const answer = /^<answer>(\w+)<\/answer>$/.exec(action.trim())?.[1];
    const right = answer === colourAt(this.#seed, 0);
    this.#turn++;
    const terminated = right;
    const truncated = !right && this.#turn >= this.turns;
    const feedback = `Your answer "${quoteModelText(action.slice(0, 60))}" is not right. Look at the square again and name its colour.`;
    return {
      observation: terminated || truncated ? { text: 'Done.', images: [] } : await this.#observation(feedback),
      reward: right ? 1 : 0,
      terminated,
      truncated,
      info: {
        formatCorrect: answer !== undefined,
        rewardTerms: { correct: right ? 1 : 0 },
        metrics: { success: right },
        ...(this.#turn >= this.forcedAnswerFrom ? { forcedPrefix: '<answer>' } : {}),
      },
    };
  }

  oracleResponse(): string {
    return `<answer>${colourAt(this.#seed, 0)}</answer>`;
  }

  async close(): Promise<void> {}

  /** Async: the square is encoded (once a size and colour) at the env's own size. */
  async #observation(text: string): Promise<Observation> {
    const image: ImageData = { data: await encodeSolidPng(this.imageSize, COLOURS[colourAt(this.#seed, 0)]), mediaType: 'image/png' };
    return { text: `${text} <image>`, images: [image] };
  }
}

export function registerRetry(): void {
  registerEnv({ id: RETRY_ID, create: (options: { turns?: number; imageSize?: number; forcedAnswerFrom?: number }) => new RetryEnv(options), maxTurns: 8 }, { override: true });
}
