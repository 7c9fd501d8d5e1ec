import { z } from 'zod';

/**
 * An LLM judge as settings (in a run config's env options, an env service's `env_config`, or
 * from `--judge-url`): any OpenAI-compatible chat-completions server. Defaults are VAGEN's
 * (`vagen/server/config/llm_as_judge.yaml`: gpt-4.1-nano, temperature 0.1, 400 tokens, 2
 * retries, 30 s a request, 70 requests at once).
 */
export const judgeSettingsSchema = z.strictObject({
  /** The server's OpenAI base URL, e.g. `http://localhost:8000/v1`. */
  url: z.url({ protocol: /^https?$/ }),
  model: z.string().min(1).default('gpt-4.1-nano-2025-04-14'),
  /** Environment variable holding the API key (default OPENAI_API_KEY; no key sent when unset). */
  apiKeyEnv: z.string().min(1).default('OPENAI_API_KEY'),
  temperature: z.number().min(0).default(0.1),
  maxTokens: z.number().int().positive().default(400),
  maxRetries: z.number().int().nonnegative().default(2),
  timeoutMs: z.number().int().positive().default(30_000),
  /** Requests in flight at once, over every env of the process. */
  concurrency: z.number().int().positive().default(70),
  /** Scores kept by (prompt, state); 0 turns the cache off. */
  cacheSize: z.number().int().nonnegative().default(10_000),
});

/** Judge settings with VAGEN's defaults filled in. */
export type JudgeSettings = z.infer<typeof judgeSettingsSchema>;

/** The `--judge-*` flags of train, eval and serve env. */
export interface JudgeFlags {
  judgeUrl?: string;
  judgeModel?: string;
  judgeApiKeyEnv?: string;
}

/** The help lines of the `--judge-*` flags, shared by the commands that take them. */
export const JUDGE_FLAG_HELP = {
  url: "an OpenAI-compatible server (e.g. http://localhost:8000/v1) that judges the grid envs' <observation> / <prediction> (with visualReasoningReward); sets the env option judge",
  model: 'the judge model (default gpt-4.1-nano-2025-04-14, as VAGEN)',
  apiKeyEnv: "environment variable holding the judge's API key (default OPENAI_API_KEY)",
} as const;

/** The judge settings the flags name (as env option `judge`), or undefined without --judge-url. */
export function judgeOptionFromFlags(flags: JudgeFlags): Record<string, string> | undefined {
  if (flags.judgeUrl === undefined) return undefined;
  return { url: flags.judgeUrl, ...(flags.judgeModel === undefined ? {} : { model: flags.judgeModel }), ...(flags.judgeApiKeyEnv === undefined ? {} : { apiKeyEnv: flags.judgeApiKeyEnv }) };
}
