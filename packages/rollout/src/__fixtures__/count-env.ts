import type { Agent, AgentActOptions, AgentResponse, Env, EnvResetOptions, ImageData, Observation, ResetResult, StepResult } from '@saccade/spec';

export interface CountEnvOptions {
  /** Steps until the episode terminates. Default 3. */
  length?: number;
  /** Attach one image (bytes derived from the seed) to every observation. */
  withImage?: boolean;
  /** Throw from step() on this 0-based turn. */
  throwOnTurn?: number;
}

/** A tiny text env: the agent answers `ok` each turn; reward 1 per `ok`; success when every answer was `ok`. */
export class CountEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test/Count-v1';
  closed = 0;
  #turn = 0;
  #seed = 0;
  #allOk = true;

  constructor(readonly options: CountEnvOptions = {}) {}

  async reset({ seed = 0 }: EnvResetOptions = {}): Promise<ResetResult> {
    this.#turn = 0;
    this.#seed = seed;
    this.#allOk = true;
    return { observation: this.#observation(), info: {} };
  }

  async step(action: string): Promise<StepResult> {
    if (this.options.throwOnTurn === this.#turn) throw new Error(`CountEnv broke on turn ${this.#turn}`);
    this.#turn++;
    const ok = action === 'ok';
    if (!ok) this.#allOk = false;
    const terminated = this.#turn >= (this.options.length ?? 3);
    return {
      observation: this.#observation(),
      reward: ok ? 1 : 0,
      terminated,
      truncated: false,
      info: { rewardTerms: { ok: ok ? 1 : 0 }, metrics: { success: terminated && this.#allOk } },
    };
  }

  systemPrompt(): string {
    return 'Answer ok.';
  }

  async close(): Promise<void> {
    this.closed++;
  }

  #observation(): Observation {
    if (!this.options.withImage) return { text: `Turn ${this.#turn}.`, images: [] };
    return { text: `Turn ${this.#turn}: <image>`, images: [seedImage(this.#seed)] };
  }
}

/** Fake encoded bytes, the same for a seed (hashing never decodes them). */
export function seedImage(seed: number): ImageData {
  return { data: new TextEncoder().encode(`image of seed ${seed}`), mediaType: 'image/png', width: 28, height: 28 };
}

/** An agent that answers `ok` after a random delay in [0, maxLatencyMs], and counts how many calls overlap. */
export function latencyAgent(maxLatencyMs: number, answer: (options: AgentActOptions) => string = () => 'ok'): Agent & { peak: number; calls: number } {
  let active = 0;
  const agent = {
    specificationVersion: 'v1' as const,
    id: 'latency',
    peak: 0,
    calls: 0,
    async act(options: AgentActOptions): Promise<AgentResponse> {
      agent.calls++;
      active++;
      agent.peak = Math.max(agent.peak, active);
      try {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * maxLatencyMs));
        options.signal?.throwIfAborted();
        return { outputs: [{ text: answer(options), finishReason: 'stop' }] };
      } finally {
        active--;
      }
    },
  };
  return agent;
}
