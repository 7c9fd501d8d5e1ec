import { resolveModelConfig, Tokenizer, type CreateModelOptions } from '@saccade/models';
import { InvalidArgumentError } from '@saccade/spec';
import { z } from 'zod';
import { lookingOracleSchema } from './looking-oracle-schema.js';

const seedRangeSchema = z.object({ start: z.number().int().nonnegative(), count: z.number().int().positive() }).strict();

/**
 * A phase's time guard: seconds after which it stops even with steps left, and the run records the
 * cut (a warning event, `cuts` in summary.json, a line at the end). No default: a phase's budget is
 * its `steps`, so a config gives the same curve on a slower machine, only later; a default in
 * seconds is a statement about one machine (the visual-search recipe's 480 s stopped its SFT at
 * step 120 where it was measured and at step 76 on a machine 1.5× slower).
 */
const guardSecondsError = (issue: { input?: unknown }): string =>
  `expected seconds > 0 (a time guard; leave the key out for none), received ${typeof issue.input === 'string' ? JSON.stringify(issue.input) : String(issue.input)}`;
const guardSecondsSchema = z
  .number({ error: guardSecondsError })
  .refine((value) => value > 0 && Number.isFinite(value), { error: guardSecondsError })
  .optional();

/**
 * The Adam a phase after SFT starts with: 'fresh' (default), or 'sft', SFT's own, its moments and
 * step count carried on at the phase's rate. A fresh Adam divides its first gradients by their own
 * size, so every weight moves by about the full rate whatever the gradient says; SFT's second
 * moments say how large each weight's gradients run, so a small, noisy policy gradient makes a
 * small step.
 */
const optimizerStateSchema = z.enum(['fresh', 'sft']).default('fresh');

/**
 * `saccade train`'s configuration. Every field has the default run's value, so an empty config is
 * the built-in default: the small model on FrozenLake 4×4 from images, SFT on the solver's
 * demonstrations then GRPO, sized for a laptop CPU.
 */
export const trainConfigSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'letters, digits, "_", "." or "-"').optional(),
    env: z
      .object({
        id: z.string().default('saccade/FrozenLake-v1'),
        // One move a turn: each answer is a function of the image alone (the grid layers plan it),
        // where three moves a turn make a 2-layer decoder track the player's position as it writes.
        options: z.record(z.string(), z.unknown()).default({ format: 'no_think', observation: 'vision', maxActionsPerTurn: 1 }),
        maxTurns: z.number().int().positive().default(10),
      })
      .strict()
      .prefault({}),
    model: z
      .object({
        preset: z.enum(['tiny', 'small']).default('small'),
        seed: z.number().int().default(0),
        /**
         * Changes to the preset's ModelConfig, e.g. {imageSize: 48, patchSize: 8} for 8 px Sokoban
         * cells, or {vision: {pointer: true, stem: {channels: 16, pooling: max}}}. The flat form
         * configs had before the vision switches were grouped ({gridPointer: true, stemPooling: max})
         * is still read, so that runs made before resume: the model applies it as it did then.
         */
        config: z
          .custom<NonNullable<CreateModelOptions['config']>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected a mapping of model config fields')
          .optional(),
      })
      .strict()
      .superRefine((model, context) => {
        // The model checks every value (naming the field), here rather than when the run starts.
        if (model.config === undefined) return;
        try {
          resolveModelConfig({ preset: model.preset, config: model.config }, new Tokenizer());
        } catch (error) {
          if (!InvalidArgumentError.isInstance(error)) throw error;
          context.addIssue({ code: 'custom', path: ['config', ...error.argument.split('.').slice(1)], message: error.message });
        }
      })
      .prefault({}),
    /** What of the env's text the policy reads: 'image' (images only: Markov visual envs, the default run) or 'full'. */
    policyView: z.enum(['image', 'full', 'no-system']).default('image'),
    /** Earlier turns each prompt keeps (VAGEN's window; 0: each turn sees its observation only, as a Markov env needs). */
    historyWindow: z.number().int().nonnegative().default(0),
    /** Plug-in packages of envs or tools to load (package names, or folders), as `--plugin` gives them; the run records every one it loaded. */
    plugins: z.array(z.string()).default([]),
    /**
     * Which tokens take part in advantage estimation (M^adv): 'loss' (the trained tokens, VAGEN's
     * runs) or 'generated' (also responses that never ended, which the loss leaves out; PPO's GAE
     * then carries values through them). docs/advantages.md.
     */
    advantageMask: z.enum(['loss', 'generated']).default('loss'),
    /** Tools the policy may call inside its episodes (registered tool names); the env is wrapped in the tool-use wrapper. */
    tools: z.array(z.string()).default([]),
    /** Settings of configurable tools by name (as `--tool-options`), e.g. {search_coordinate: {offset: 256}}. */
    toolOptions: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /**
     * Rewards of the tool loop (with `tools`): `invalidCall` is the reward of a tool turn whose call
     * was invalid (e.g. −0.1), `toolBonus` DeepEyes' conditional tool bonus, added to a right
     * answer after a call that gave a result, `targetHit` a grounding reward for the turn whose call
     * first held the task's target. GRPO sees them with `grpo.score: return`.
     */
    toolRewards: z.object({ invalidCall: z.number().finite().optional(), toolBonus: z.number().finite().optional(), targetHit: z.number().finite().optional() }).strict().default({}),
    /** When the looking oracle of SFT's demonstrations counts a target as seen (lookingOracleSchema). */
    lookingOracle: lookingOracleSchema.default({}),
    /** SFT files whose chats SFT trains on, beside or instead of the oracle's: `saccade data generate` output, LLaMA-Factory ShareGPT or alpaca, LLaVA, OpenAI chat (docs/training.md). */
    sftFiles: z.array(z.string()).default([]),
    /** Skip records of the SFT files that cannot be read (counted) instead of refusing the run. */
    sftSkipInvalid: z.boolean().default(false),
    /** Seeds the demonstrations and GRPO prompts come from, and the held-out seeds evaluation plays. */
    seeds: z
      .object({
        train: seedRangeSchema.default({ start: 10_000, count: 8_000 }),
        eval: seedRangeSchema.default({ start: 0, count: 200 }),
      })
      .strict()
      .prefault({}),
    /**
     * A sampled held-out evaluation beside every greedy one (verl's val_kwargs): each held-out seed
     * played `samples` times at `temperature`; eval rows add `sampledSuccess` (mean@n) and the other
     * metrics as `sampled<Metric>`. Off by default (it plays `samples` × the held-out seeds more).
     */
    evalSampling: z.object({ temperature: z.number().positive(), samples: z.number().int().positive() }).strict().optional(),
    /** Stop the whole run once held-out success reaches this (0–1). */
    targetSuccess: z.number().min(0).max(1).optional(),
    /** Phase 1: supervised fine-tuning on the env solver's demonstrations. */
    sft: z
      .object({
        /** Play the training seeds with the env's oracle for demonstrations (false: the SFT files only). */
        oracle: z.boolean().default(true),
        /**
         * Who plays the training seeds for demonstrations: the env's 'oracle', or a 'random' agent of
         * its action space (valid actions in the right format, no policy: a start that knows the
         * format but not the task, as VAGEN's base model does), or 'random-grounded': the random
         * agent's actions after the env's true <observation> (env format 'grounding'): a start that
         * also says what it sees, as VAGEN's base model can, and still has no policy; or
         * 'noisy-looking': a scripted searcher that looks at the target only by chance and keeps every
         * look it made (`createNoisyLookingAgent`; with `demonstrationSamples` > 1, best-of-n chains).
         */
        demonstrator: z.enum(['oracle', 'random', 'random-grounded', 'noisy-looking']).default('oracle'),
        /**
         * Best-of-n demonstrations: each training seed is played up to this many times and its first
         * episode the env scored a success is kept; seeds with none are left out (default 1: every
         * episode as played).
         */
        demonstrationSamples: z.number().int().positive().default(1),
        /** The noisy-looking demonstrator's chances: a look at the target, the right answer once seen, looks before a guess. */
        noisyLooking: z
          .object({ hitProbability: z.number().min(0).max(1).optional(), accuracyWhenSeen: z.number().min(0).max(1).optional(), maxLooks: z.number().int().nonnegative().optional() })
          .strict()
          .default({}),
        /**
         * Leave out of the loss the demonstration turns whose looks all missed the target (a searching
         * teacher's looks at decoys: VisualSearch's oracleDecoys), so the pointer is taught the
         * target's cell only; the turn after a missed look keeps its loss.
         */
        maskMissedLooks: z.boolean().default(false),
        steps: z.number().int().nonnegative().default(400),
        batchSize: z.number().int().positive().default(32),
        learningRate: z.number().positive().default(3e-3),
        warmupSteps: z.number().int().nonnegative().default(20),
        evalEvery: z.number().int().positive().default(50),
        /** Tokens a response may take in the phase's held-out evaluation (a tool call needs more than an answer). */
        maxTokens: z.number().int().positive().default(48),
        /** A time guard, not a budget (default none): stop SFT after this many seconds, recorded as a cut. */
        timeLimitSeconds: guardSecondsSchema,
      })
      .strict()
      .prefault({}),
    /** Phase 2: GRPO from the SFT policy (0 steps skips it). */
    grpo: z
      .object({
        /** The default run's 110 steps: what fitted in its former 330-s limit on the 2-core machine (docs/training.md's curve, ending at step 510). */
        steps: z.number().int().nonnegative().default(110),
        promptsPerStep: z.number().int().positive().default(16),
        groupSize: z.number().int().min(2).default(8),
        learningRate: z.number().positive().default(1e-4),
        /** Steps over which the rate rises linearly to learningRate (verl's lr_warmup_steps; 0: none): a fresh Adam's first updates move every weight by the full rate. */
        warmupSteps: z.number().int().nonnegative().default(0),
        optimizerState: optimizerStateSchema,
        temperature: z.number().positive().default(1),
        maxTokens: z.number().int().positive().default(48),
        clipLow: z.number().positive().default(0.2),
        clipHigh: z.number().positive().default(0.28),
        klCoefficient: z.number().nonnegative().default(0),
        entropyCoefficient: z.number().default(0),
        /** The policy gradient on each shard's top-ρ entropy tokens only (TRL's top_entropy_quantile; 1: every token). */
        topEntropyQuantile: z.number().gt(0).max(1).default(1),
        /** 'success' scores an episode 1/0 (outcome reward); 'return' sums its rewards, shaping included. */
        score: z.enum(['success', 'return']).default('success'),
        /** false: Dr. GRPO's advantages (score − group mean, no division by the group's std). */
        normalizeStd: z.boolean().default(true),
        /** A null control: each group's scores shuffled among its episodes (the update's noise without the reward's signal); GRPO's episode level only. */
        shuffleScores: z.boolean().default(false),
        skipUniformGroups: z.boolean().default(true),
        /**
         * DAPO's dynamic sampling (verl's filter_groups.max_num_gen_batches): while fewer than
         * promptsPerStep of a step's groups vary, play another batch of fresh seeds, up to this many
         * batches; the update takes the first promptsPerStep varied groups. 1: off.
         */
        maxSampledBatches: z.number().int().positive().default(1),
        /** Train on this fraction of each step's groups, those whose scores vary most (VAGEN main's reward_variance_top_p). */
        rewardVarianceTopP: z.number().gt(0).max(1).default(1),
        /** Over-turn masking (Mini-o3): episodes the turn cap cut get no gradient. */
        maskTruncatedEpisodes: z.boolean().default(false),
        /** An episode whose tool calls all missed the target trains its calls, not its answer (the answer could only guess). */
        maskUngroundedAnswers: z.boolean().default(false),
        /**
         * 'gigpo' (the default: it measured ahead of plain GRPO from every weak start and level from
         * strong ones, docs/training.md): GiGPO's two-level advantages (verl-agent's
         * adv_estimator=gigpo), the episode's GRPO advantage plus stepAdvantageWeight × the turn's
         * discounted return normalised among the group's turns on the same state. 'grpo': the
         * episode's advantage alone.
         */
        advantageEstimator: z.enum(['grpo', 'gigpo']).default('gigpo'),
        /** GiGPO's ω. */
        stepAdvantageWeight: z.number().nonnegative().default(1),
        /** GiGPO's γ. */
        stepDiscount: z.number().min(0).max(1).default(0.95),
        /** GiGPO's same state: 'observation' (text and images equal) or 'images' (the rendered state only). */
        stepAnchor: z.enum(['observation', 'images']).default('observation'),
        /** 'token-sum-norm' is Dr. GRPO's (each sequence's token sum over lengthNormalizer). */
        aggregation: z.enum(['token-mean', 'sequence-mean', 'token-sum-norm']).default('token-mean'),
        lengthNormalizer: z.number().positive().optional(),
        /** The largest mean |sampler − trainer| log-prob gap a step may show before the run stops (logprobGap). */
        maxLogprobGap: z.number().positive().default(1e-3),
        epochs: z.number().int().positive().default(1),
        miniBatches: z.number().int().positive().default(1),
        evalEvery: z.number().int().positive().default(10),
        /** A time guard (default none): stop the phase after this many seconds, recorded as a cut. */
        timeLimitSeconds: guardSecondsSchema,
      })
      .strict()
      .prefault({}),
    /** The reinforcement-learning phase after SFT: GRPO (default) or PPO with a critic; 'sft' stops after SFT. */
    algorithm: z.enum(['sft', 'grpo', 'ppo']).default('grpo'),
    /** Phase 2 when `algorithm: ppo`: PPO with the value head as critic (0 steps skips it). */
    ppo: z
      .object({
        steps: z.number().int().nonnegative().default(100),
        episodesPerStep: z.number().int().positive().default(64),
        learningRate: z.number().positive().default(5e-5),
        /** The value head's own Adam rate (VAGEN: the critic's rate above the actor's). */
        criticLearningRate: z.number().positive().default(3e-3),
        /** As grpo.warmupSteps, for the actor's rate. */
        warmupSteps: z.number().int().nonnegative().default(0),
        /** As grpo.optimizerState, for the actor's Adam (the critic's starts fresh). */
        optimizerState: optimizerStateSchema,
        temperature: z.number().positive().default(1),
        maxTokens: z.number().int().positive().default(48),
        clipLow: z.number().positive().default(0.2),
        clipHigh: z.number().positive().default(0.2),
        klCoefficient: z.number().nonnegative().default(0),
        entropyCoefficient: z.number().default(0),
        /** As grpo.topEntropyQuantile. */
        topEntropyQuantile: z.number().gt(0).max(1).default(1),
        aggregation: z.enum(['token-mean', 'sequence-mean', 'token-sum-norm']).default('token-mean'),
        lengthNormalizer: z.number().positive().optional(),
        maskTruncatedEpisodes: z.boolean().default(false),
        maxLogprobGap: z.number().positive().default(1e-3),
        epochs: z.number().int().positive().default(2),
        miniBatches: z.number().int().positive().default(2),
        advantageEstimator: z.enum(['bi-level', 'masked', 'turn-wise']).default('bi-level'),
        gammaTurn: z.number().min(0).max(1).default(0.95),
        gammaToken: z.number().min(0).max(1).default(1),
        lambda: z.number().min(0).max(1).default(1),
        whiten: z.boolean().default(true),
        rewardScale: z.number().positive().default(0.1),
        valueCoefficient: z.number().nonnegative().default(0.5),
        valueClip: z.number().nonnegative().default(0),
        valueWarmupSteps: z.number().int().nonnegative().default(3),
        evalEvery: z.number().int().positive().default(10),
        /** A time guard (default none): stop the phase after this many seconds, recorded as a cut. */
        timeLimitSeconds: guardSecondsSchema,
      })
      .strict()
      .prefault({}),
    /**
     * Episodes the run stores in its folder with what the trainer made of them (steps, groups,
     * scores, advantages, token masks), for `saccade view`: `trajectories/training.jsonl` and
     * `trajectories/evaluations.jsonl`, images beside them (docs/viewer.md).
     */
    episodeStore: z
      .object({
        /** Store the episodes of every this-many-th GRPO or PPO step (steps whose number it divides; 0: none). */
        trainEvery: z.number().int().nonnegative().default(10),
        /** Store the held-out evaluations' episodes. */
        evaluations: z.boolean().default(true),
        /** Stop storing (with a warning) once the stored files reach this many megabytes. */
        maxMegabytes: z.number().positive().default(300),
      })
      .strict()
      .prefault({}),
    /** Save a checkpoint every this many steps (for --resume); the end of each phase always saves one. */
    checkpointEvery: z.number().int().positive().default(50),
    /** Data-parallel worker threads (default: one per spare core on the wasm/cpu backends). */
    workers: z.number().int().nonnegative().optional(),
    seed: z.number().int().default(0),
    outputFolder: z.string().default('runs'),
  })
  .strict();

export type TrainConfig = z.output<typeof trainConfigSchema>;
export type TrainConfigInput = z.input<typeof trainConfigSchema>;
