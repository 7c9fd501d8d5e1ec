import { IMAGE_PLACEHOLDER, type Env, type EnvResetOptions, type ImageData, type ResetResult, type StepResult } from '@saccade/spec';
import { parseFormattedResponse } from '../formats/parse-formatted-response';
import { createRng } from '../random/create-rng';

/** A valid 1×1 red PNG. */
export const RED_PIXEL_PNG: ImageData = {
  data: new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64')),
  mediaType: 'image/png',
  width: 1,
  height: 1,
};

/** Ways to break the env on purpose, to test that checkEnv catches them. */
export interface GuessNumberFaults {
  nondeterministic?: boolean;
  placeholderMismatch?: boolean;
  throwOnBadAction?: boolean;
  closeTwiceThrows?: boolean;
  rewardMismatch?: boolean;
  badImage?: boolean;
}

/**
 * A tiny reference env: guess a number from 1 to 20 in `<answer>N</answer>`; the observation
 * holds one image. Rewards: format 0.5 per well-formed turn, success 10.
 */
export class GuessNumberEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test/GuessNumber-v1';
  #secret = 0;
  #closed = 0;
  readonly #faults: GuessNumberFaults;

  constructor(faults: GuessNumberFaults = {}) {
    this.#faults = faults;
  }

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

  async close(): Promise<void> {
    this.#closed += 1;
    if (this.#faults.closeTwiceThrows && this.#closed > 1) throw new Error('already closed');
  }
}
