import type { EnvResetOptions, ResetResult, StepResult } from '@saccade/spec';
import { EnvWrapper } from './env-wrapper';

/** An episode's return, length and duration, as `RecordEpisodeStatistics` puts them in the last step's info. */
export interface EpisodeStatistics {
  /** The sum of rewards over the episode. */
  return: number;
  /** The number of steps. */
  length: number;
  /** Wall time from reset to the last step, in milliseconds. */
  timeMs: number;
}

/**
 * Adds `info.episode = {return, length, timeMs}` to the step that ends an episode (terminated or
 * truncated), like Gymnasium's wrapper of the same name.
 */
export class RecordEpisodeStatistics extends EnvWrapper {
  #return = 0;
  #length = 0;
  #startedAt = 0;

  override async reset(options?: EnvResetOptions): Promise<ResetResult> {
    const result = await this.env.reset(options);
    this.#return = 0;
    this.#length = 0;
    this.#startedAt = performance.now();
    return result;
  }

  override async step(action: string): Promise<StepResult> {
    const result = await this.env.step(action);
    this.#return += result.reward;
    this.#length += 1;
    if (!result.terminated && !result.truncated) return result;
    const episode: EpisodeStatistics = {
      return: this.#return,
      length: this.#length,
      timeMs: performance.now() - this.#startedAt,
    };
    return { ...result, info: { ...result.info, episode } };
  }
}
