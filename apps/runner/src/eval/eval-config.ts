import { z } from 'zod';
import { lookingOracleSchema } from '../looking-oracle-schema.js';

/**
 * `saccade eval`'s resolved configuration, written to the run folder's config.yaml and read back
 * by `--resume`, so a resumed eval plays exactly the episodes the first one planned.
 */
export const evalConfigSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'letters, digits, "_", "." or "-"'),
    env: z
      .object({
        id: z.string().min(1),
        options: z.record(z.string(), z.unknown()).default({}),
      })
      .strict(),
    /** The task file, when the eval runs over one (env saccade/VisionQA-v1 with options.taskFile). */
    tasks: z.string().optional(),
    agent: z
      .object({
        kind: z.enum(['oracle', 'random', 'openai', 'policy', 'transformers']),
        baseUrl: z.string().optional(),
        model: z.string().optional(),
        checkpoint: z.string().optional(),
        /** transformers: a local ONNX export's folder (absolute). */
        modelPath: z.string().optional(),
        /** transformers: which ONNX weights (fp32, fp16, q8, q4, …; default the folder's). */
        dtype: z.string().optional(),
        policyView: z.enum(['image', 'full', 'no-system']).default('image'),
        /** policy: earlier turns each prompt keeps, as the run trained (default 0). */
        historyWindow: z.number().int().nonnegative().optional(),
        temperature: z.number().min(0).optional(),
        maxTokens: z.number().int().positive().optional(),
      })
      .strict(),
    /** Seeds `seed … seed + episodes − 1`, each played `samples` times. */
    episodes: z.number().int().positive(),
    samples: z.number().int().positive().default(1),
    seed: z.number().int().nonnegative().default(0),
    /** Turn cap per episode; default: the env's own limit. */
    maxTurns: z.number().int().positive().optional(),
    concurrency: z.number().int().positive(),
    /** Tools the agent may call (names of registered tools); the env is wrapped in a ToolUseWrapper. */
    tools: z.array(z.string()).default([]),
    /** Settings of configurable tools by name (--tool-options): a model file, a server's URL; keys are read from env vars at run time. */
    toolOptions: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /** When the oracle agent's looks count a target as seen (a training run's `lookingOracle`, taken by --env-from). */
    lookingOracle: lookingOracleSchema.optional(),
    outputFolder: z.string().default('runs'),
    /** Plug-in packages the eval loaded (package names or folders), loaded again by --resume. */
    plugins: z.array(z.string()).default([]),
  })
  .strict()
  .superRefine((config, context) => {
    const { agent } = config;
    if (agent.kind === 'openai') {
      if (agent.baseUrl === undefined) context.addIssue({ code: 'custom', path: ['agent', 'baseUrl'], message: '--agent openai needs --base-url (e.g. http://localhost:8000/v1)' });
      if (agent.model === undefined) context.addIssue({ code: 'custom', path: ['agent', 'model'], message: '--agent openai needs --model (the name the server knows)' });
    }
    if (agent.kind === 'transformers' && agent.modelPath === undefined) {
      context.addIssue({ code: 'custom', path: ['agent', 'modelPath'], message: '--agent transformers needs --model-path <folder of an ONNX export: config.json, tokenizer, onnx/*.onnx>' });
    }
    if (agent.kind === 'policy' && agent.checkpoint === undefined) {
      context.addIssue({ code: 'custom', path: ['agent', 'checkpoint'], message: '--agent policy needs --checkpoint <run folder or checkpoint folder>' });
    }
  });

export type EvalConfig = z.output<typeof evalConfigSchema>;
