import type { PromptView } from '@saccade/agents';
import { makeEnv } from '@saccade/core';
import { createImageDecoder, createModelAgent, createModelSequenceTokenizer, imageTokenCount, type ModelGenerator, type ModelSequence, type VisionLanguageModel } from '@saccade/models';
import {
  runRollouts,
  trajectorySequences,
  type RolloutPrompt,
  type SequenceTokenizer,
  type TrainingSequence,
} from '@saccade/rollout';
import type { Agent, Env, ImageData, RunEvent, Trajectory } from '@saccade/spec';
import type { EpisodeContext } from '@saccade/rollout';
import type { EpisodeRecorder } from './training-record';

/** What every trainer says about the episodes it plays: the env, the prompt the policy reads, the sampling limits. */
export interface EpisodeSettings {
  envId: string;
  envOptions?: Record<string, unknown>;
  /**
   * Creates an episode's env (the runner wraps it with tools). Default: the registry's env with
   * `maxTurns` as its time limit.
   */
  createEnv?: (prompt: RolloutPrompt) => Env | Promise<Env>;
  /** Turn cap per episode. */
  maxTurns: number;
  /** What of the env's text the policy reads (`buildMessages`' view). */
  view: PromptView;
  /** Earlier turns each prompt keeps (VAGEN's window; default: all). */
  historyWindow?: number;
  /** Generated tokens per turn (default 48). */
  maxTokens?: number;
  /** Generation stops after these (default `</answer>` and `</tool_call>`). */
  stop?: string[];
  /** Longest training sequence; longer ones lose their oldest tokens (default: the model's context). */
  maxSequenceLength?: number;
  /**
   * Which tokens take part in advantage estimation (REFERENCE §5's M^adv): `'loss'` (default, as in
   * VAGEN's runs: the trained tokens) or `'generated'` (also the tokens of responses the loss
   * leaves out, those that never ended, so that GAE carries values through them).
   */
  advantageMask?: 'loss' | 'generated';
  /** Episodes of each rollout batch reported as `episode-start` / `turn-end` / `episode-end` events (default 4). */
  reportedEpisodes?: number;
  /** Stores the episodes of the steps and evaluations it wants, with what the trainer made of them. */
  recorder?: EpisodeRecorder;
  signal?: AbortSignal;
}

/** One rollout batch: the trajectories in prompt then sample order, and the images they refer to. */
export interface PlayedBatch {
  trajectories: Trajectory[];
  images: Map<string, ImageData>;
}

/**
 * How PolicyEpisodes.play plays a batch of seeds: group size, sampling (temperature, top-p, seed),
 * another agent in the policy's place, concurrency, and the step and ids its events carry.
 */
export interface PlayOptions {
  /** Episodes per seed, one group each (GRPO's G). Default 1. */
  groupSize?: number;
  /** 0 is greedy. */
  temperature: number;
  topP?: number;
  /** Seed of the sampler: same seed, same episodes. */
  seed: number;
  /** Plays with this agent (e.g. the oracle) instead of the policy. */
  agent?: Agent | ((context: EpisodeContext) => Agent | Promise<Agent>);
  /** Episodes in flight (default 128; a lock-step wave of the policy). */
  concurrency?: number;
  /** The training step, put on the reported events. */
  step?: number;
  /** Prefix of the episodes' ids (default `s<step>`). */
  batchId?: string;
}

/**
 * The trainers' one way to play and read episodes: the built-in model as an agent (its generation
 * shared over the trainer's threads), the rollout manager playing it in lock step, and rollout's
 * tokeniser turning trajectories into the masked sequences the losses read.
 */
export interface PolicyEpisodes {
  readonly agent: Agent;
  readonly tokenizer: SequenceTokenizer;
  play(seeds: readonly number[], options: PlayOptions): Promise<PlayedBatch>;
  /** A trajectory's training sequences, as its turns were prompted (see trajectorySequences). */
  sequences(trajectory: Trajectory, options?: { recordedTokens?: boolean }): TrainingSequence[];
  /** A training sequence's tokens with its images decoded at the model's size. */
  modelSequence(sequence: TrainingSequence, images: ReadonlyMap<string, ImageData>): Promise<ModelSequence>;
}

/**
 * The stop strings the policy samples with: a turn ends at its answer or its tool call, so the env
 * answers the call before the model goes on.
 */
export const DEFAULT_STOP = ['</answer>', '</tool_call>'];

/**
 * The PolicyEpisodes of a model: an agent over `generator`, the rollout manager that plays it in
 * lock step, and the tokeniser of its sequences; progress goes to `onEvent`.
 */
export async function createPolicyEpisodes(
  model: VisionLanguageModel,
  settings: EpisodeSettings,
  generator: ModelGenerator,
  onEvent: (event: RunEvent) => void = () => {},
): Promise<PolicyEpisodes> {
  const decode = createImageDecoder();
  // It continues a prefix the env forces (ViGoRL's final answer once the crop budget is spent).
  const agent = createModelAgent({ model, generator, decodeImage: decode, id: 'saccade/small-vlm', continueFinalMessage: true });
  const tokenizer = createModelSequenceTokenizer({ imageTokens: imageTokenCount(model.config), tokenizer: model.tokenizer });
  const createEnv = settings.createEnv ?? ((prompt: RolloutPrompt) => makeEnv(prompt.envId, prompt.envOptions ?? {}, { maxTurns: settings.maxTurns }));
  const reported = settings.reportedEpisodes ?? 4;
  const maxLength = settings.maxSequenceLength ?? model.config.maxSequenceLength;
  return {
    agent,
    tokenizer,
    async play(seeds, options) {
      const groupSize = options.groupSize ?? 1;
      // Progress of the first episodes only: a step plays hundreds, and the run folder keeps every event.
      const shown = new Set<string>();
      const result = await runRollouts({
        agent: options.agent ?? agent,
        createEnv,
        prompts: seeds.map((seed) => ({ envId: settings.envId, seed, envOptions: settings.envOptions ?? {} })),
        groupSize,
        concurrency: options.concurrency ?? 128,
        maxTurns: settings.maxTurns,
        view: settings.view,
        ...(settings.historyWindow === undefined ? {} : { historyWindow: settings.historyWindow }),
        sampling: { temperature: options.temperature, topP: options.topP ?? 1, maxTokens: settings.maxTokens ?? 48, stop: settings.stop ?? DEFAULT_STOP },
        seed: options.seed,
        batchId: options.batchId ?? `s${options.step ?? 0}`,
        ...(options.step === undefined ? {} : { step: options.step }),
        ...(settings.signal ? { signal: settings.signal } : {}),
        onEvent: (event) => {
          if (event.type === 'episode-start' && shown.size < reported) shown.add(event.episodeId);
          if ((event.type === 'episode-start' || event.type === 'turn-end' || event.type === 'episode-end') && shown.has(event.episodeId)) onEvent(event);
        },
      });
      settings.signal?.throwIfAborted();
      // An episode that failed (its env or agent threw) is never a silent zero.
      const failed = result.trajectories.filter((trajectory) => trajectory.error !== undefined);
      const first = failed[0]?.error;
      if (first !== undefined && failed.length === result.trajectories.length && options.agent === undefined) {
        throw new Error(`Every episode of ${settings.envId} failed (${failed.length} of ${failed.length}); the first: ${first.name}: ${first.message}`);
      }
      if (first !== undefined) {
        onEvent({ type: 'log', time: new Date().toISOString(), level: 'warn', message: `${failed.length} of ${result.trajectories.length} episodes failed and are left out; the first: ${first.name}: ${first.message}` });
      }
      return { trajectories: result.trajectories, images: result.images };
    },
    sequences: (trajectory, options = {}) =>
      trajectorySequences(trajectory, tokenizer, {
        view: settings.view,
        ...(settings.historyWindow === undefined ? {} : { historyWindow: settings.historyWindow }),
        maxLength,
        recordedTokens: options.recordedTokens ?? true,
        ...(settings.advantageMask === undefined ? {} : { advantageMask: settings.advantageMask }),
      }),
    async modelSequence(sequence, images) {
      const decoded = await Promise.all(
        sequence.images.map((reference) => {
          const image = images.get(reference.hash);
          if (!image) throw new Error(`Image ${reference.hash} of trajectory ${sequence.trajectoryId} is not among the batch's images.`);
          return decode(image, model.config.imageSize);
        }),
      );
      return { tokens: sequence.inputIds, images: decoded };
    },
  };
}
