import { z } from 'zod';

/**
 * `saccade train`'s configuration. Every field has the default run's value, so an empty config is
 * the built-in default: SFT of the small model on FrozenLake 4×4 from images, on a laptop CPU.
 */
export const trainConfigSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'letters, digits, "_", "." or "-"').optional(),
    env: z
      .object({
        id: z.string().default('saccade/FrozenLake-v1'),
        options: z.record(z.string(), z.unknown()).default({ format: 'no_think', observation: 'vision' }),
        maxTurns: z.number().int().positive().default(3),
      })
      .strict()
      .prefault({}),
    model: z
      .object({
        preset: z.enum(['tiny', 'small']).default('small'),
        seed: z.number().int().default(0),
      })
      .strict()
      .prefault({}),
    policyView: z.enum(['image', 'full']).default('image'),
    sft: z
      .object({
        steps: z.number().int().positive().default(600),
        batchSize: z.number().int().positive().default(32),
        learningRate: z.number().positive().default(3e-3),
        warmupSteps: z.number().int().nonnegative().default(20),
        evalEvery: z.number().int().positive().default(50),
        trainSeeds: z.object({ start: z.number().int().nonnegative(), count: z.number().int().positive() }).strict().default({ start: 10_000, count: 2_000 }),
        evalSeeds: z.object({ start: z.number().int().nonnegative(), count: z.number().int().positive() }).strict().default({ start: 0, count: 200 }),
        targetSuccess: z.number().min(0).max(1).optional(),
        timeLimitSeconds: z.number().positive().default(900),
      })
      .strict()
      .prefault({}),
    seed: z.number().int().default(0),
    outputFolder: z.string().default('runs'),
  })
  .strict();

export type TrainConfig = z.output<typeof trainConfigSchema>;
export type TrainConfigInput = z.input<typeof trainConfigSchema>;
