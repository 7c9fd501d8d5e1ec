import { createOpenAICompatibleAgent } from '@saccade/agents';
import { getEnvSpec, listEnvs, registerEnv } from '@saccade/core';
import { createLlmVisualReasoningJudge, type LlmVisualReasoningJudge } from '@saccade/env-grid';
import { InvalidArgumentError, type RunEvent } from '@saccade/spec';
import { judgeSettingsSchema, type JudgeSettings } from './judge-settings';

// One judge per distinct settings in a process: every env of a run shares its cache, its
// concurrency limit and its counts.
const judges = new Map<string, LlmVisualReasoningJudge>();
const wrapped = new WeakSet<object>();

/** A judge for the settings (VAGEN's defaults for what they leave out); the same one for the same settings. */
export function judgeFor(raw: unknown): LlmVisualReasoningJudge {
  const parsed = judgeSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError({ argument: `judge${issue.path.length > 0 ? `.${issue.path.join('.')}` : ''}`, expected: `${issue.message} (judge settings: {"url": "http://…/v1", "model"?, "apiKeyEnv"?, "temperature"?, "maxTokens"?, "maxRetries"?, "timeoutMs"?, "concurrency"?, "cacheSize"?})`, value: raw });
  }
  const settings: JudgeSettings = parsed.data;
  const key = JSON.stringify(settings);
  let judge = judges.get(key);
  if (judge === undefined) {
    const agent = createOpenAICompatibleAgent({
      baseURL: settings.url,
      model: settings.model,
      id: `judge:${settings.model}`,
      apiKeyEnv: settings.apiKeyEnv,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      maxRetries: settings.maxRetries,
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
    });
    judge = createLlmVisualReasoningJudge({
      cacheSize: settings.cacheSize,
      complete: async (prompt: string) => (await agent.act({ messages: [{ role: 'user', content: prompt }] })).outputs[0]?.text ?? '',
    });
    judges.set(key, judge);
  }
  return judge;
}

/** Options with judge settings (`{"url": …}`) turned into a judge. */
function resolveJudgeOption(options: Record<string, unknown>): Record<string, unknown> {
  const judge = options['judge'];
  return judge !== null && typeof judge === 'object' ? { ...options, judge: judgeFor(judge) } : options;
}

/**
 * Lets every registered env take its `judge` option as settings (`{"url": "http://…/v1",
 * "model": …}`) in configs, `--env-options` and an env service's `env_config`: the registry's
 * factories are wrapped to turn them into an LLM judge. Envs registered since the last call are
 * wrapped too; calling it again is harmless.
 */
export function acceptJudgeSettings(): void {
  for (const id of listEnvs()) {
    const spec = getEnvSpec(id);
    if (spec === undefined || wrapped.has(spec.create)) continue;
    const create = spec.create;
    const resolving = (options: Record<string, unknown>) => create.call(spec, resolveJudgeOption(options));
    wrapped.add(resolving);
    registerEnv({ ...spec, create: resolving }, { override: true });
  }
}

/** The judges' counts so far, summed (undefined while no judge was made). */
export function judgeMetrics(): Record<string, number> | undefined {
  if (judges.size === 0) return undefined;
  const totals = { judgeCalls: 0, judgeRequests: 0, judgeCacheHits: 0, judgeFailures: 0, judgeUnparsed: 0 };
  for (const { statistics } of judges.values()) {
    totals.judgeCalls += statistics.calls;
    totals.judgeRequests += statistics.requests;
    totals.judgeCacheHits += statistics.cacheHits;
    totals.judgeFailures += statistics.failures;
    totals.judgeUnparsed += statistics.unparsed;
  }
  return totals;
}

/** The latest judge failure's message. */
export function lastJudgeError(): string | undefined {
  return [...judges.values()].map((judge) => judge.statistics.lastError).findLast((message) => message !== undefined);
}

/** Adds the judges' counts since `since` (a `judgeMetrics()` taken when the run started) to the metrics of update, rollout and eval events. */
export function withJudgeMetrics(event: RunEvent, since: Readonly<Record<string, number>> = {}): RunEvent {
  if (event.type !== 'update-end' && event.type !== 'rollout-end' && event.type !== 'eval-end') return event;
  const metrics = judgeMetrics();
  if (metrics === undefined) return event;
  const counts = Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, value - (since[name] ?? 0)]));
  return { ...event, metrics: { ...event.metrics, ...counts } };
}
