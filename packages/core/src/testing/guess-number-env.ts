import { IMAGE_PLACEHOLDER, type Env, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { parseFormattedResponse } from '../formats/parse-formatted-response';
import { createRng } from '../random/create-rng';
import { RED_PIXEL_PNG } from './sample-images';

/** The id {@link GuessNumberEnv} reports (it registers nothing: register it under any id you like). */
export const GUESS_NUMBER_ID = 'test/GuessNumber-v1';

/** Ways to break {@link GuessNumberEnv} on purpose, to test that a conformance check or a wrapper catches them. */
export interface GuessNumberFaults {
  /** reset() adds a random number to its text: two resets with one seed differ. */
  nondeterministic?: boolean;
  /** Two `<image>` placeholders for one image. */
  placeholderMismatch?: boolean;
  /** step() throws on a response it cannot read, instead of answering "Invalid answer". */
  throwOnBadAction?: boolean;
  /** A second close() throws. */
  closeTwiceThrows?: boolean;
  /** The reward is 1 more than the sum of its reward terms. */
  rewardMismatch?: boolean;
  /** The image is labelled image/jpeg though its bytes are a PNG. */
  badImage?: boolean;
}

/**
 * A tiny deterministic reference env: guess a number from 1 to 20 (drawn from the reset seed) in
 * `<answer>N</answer>`; every observation holds one image ({@link RED_PIXEL_PNG}) and answers
 * "Higher.", "Lower." or "Correct!". Rewards: format 0.5 a well-formed turn, success 10 (the
 * episode ends); info carries `rewardTerms` and `metrics` (action_is_valid, success). It has an
 * oracle, so an oracle agent or a demonstration can play it. Pass {@link GuessNumberFaults} to break
 * it on purpose.
 *
 * @example
 * const { steps } = await runEpisode(new GuessNumberEnv(), ['<answer>10</answer>', (_, env) => env.oracleResponse!()], { seed: 3 });
 */
export class GuessNumberEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = GUESS_NUMBER_ID;
  #secret = 0;
  #closed = 0;
  readonly #faults: GuessNumberFaults;

  /** @param faults - what to break on purpose; none by default. */
  constructor(faults: GuessNumberFaults = {}) {
    this.#faults = faults;
  }

  /** The instruction: guess a number from 1 to 20 in `<answer>N</answer>`. */
  systemPrompt(): string {
    return 'Guess the number from 1 to 20. Answer with <answer>N</answer>.';
  }

  #observation(text: string) {
    const image = this.#faults.badImage ? { ...RED_PIXEL_PNG, mediaType: 'image/jpeg' as const } : RED_PIXEL_PNG;
    const placeholders = this.#faults.placeholderMismatch ? `${IMAGE_PLACEHOLDER}${IMAGE_PLACEHOLDER}` : IMAGE_PLACEHOLDER;
    return { text: `${text} ${placeholders}`, images: [image] };
  }

  async reset({ seed = 0 }: EnvResetOptions = {}): Promise<ResetResult> {
    this.#secret = createRng(seed).int(1, 20);
    const noise = this.#faults.nondeterministic ? ` (${Math.random()})` : '';
    return { observation: this.#observation(`Guess a number from 1 to 20.${noise}`), info: {} };
  }

  async step(action: string): Promise<StepResult> {
    const parsed = parseFormattedResponse(action, { format: 'no_think', maxActions: 1 });
    const guess = Number(parsed.actions[0]);
    const valid = parsed.formatCorrect && Number.isInteger(guess);
    if (!valid && this.#faults.throwOnBadAction) throw new Error(`cannot parse ${action.slice(0, 20)}`);
    const success = valid && guess === this.#secret;
    const rewardTerms = { format: valid ? 0.5 : 0, success: success ? 10 : 0 };
    const reward = rewardTerms.format + rewardTerms.success + (this.#faults.rewardMismatch ? 1 : 0);
    const hint = !valid ? `Invalid answer: ${parsed.error ?? 'not a number'}.` : success ? 'Correct!' : guess < this.#secret ? 'Higher.' : 'Lower.';
    return {
      observation: this.#observation(hint),
      reward,
      terminated: success,
      truncated: false,
      info: { rewardTerms, metrics: { action_is_valid: valid, success } },
    };
  }

  /** The right answer, `<answer>N</answer>`, for the episode the last reset drew. */
  oracleResponse(): string {
    return `<answer>${this.#secret}</answer>`;
  }

  async close(): Promise<void> {
    this.#closed += 1;
    if (this.#faults.closeTwiceThrows && this.#closed > 1) throw new Error('already closed');
  }
}
