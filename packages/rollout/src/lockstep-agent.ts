import type { Agent, AgentActBatchOptions, AgentActOptions, AgentResponse } from '@saccade/spec';

/** An agent that can answer many chats in one call. */
export type BatchAgent = Agent & Required<Pick<Agent, 'actBatch'>>;

/**
 * True for an agent with `actBatch`: the rollout plays such an agent in lock step, one batched call
 * a round.
 */
export function isBatchAgent(agent: unknown): agent is BatchAgent {
  return typeof agent === 'object' && agent !== null && typeof (agent as Agent).actBatch === 'function';
}

interface Pending {
  index: number;
  options: AgentActOptions;
  resolve: (response: AgentResponse) => void;
  reject: (error: unknown) => void;
}

/** A wave of episodes played in lock step: one `actBatch` call per round. */
export interface Lockstep {
  /** The agent episode `index` of the wave plays with: its `act` waits for the round's batch. */
  agentFor(index: number): Agent;
  /** Episode `index` ended (or failed): later rounds stop waiting for it. */
  leave(index: number): void;
  /** Rounds called so far. */
  readonly rounds: number;
}

/**
 * Plays a wave of `size` episodes in lock step: each episode's `act` waits until every episode
 * still running has asked (or ended), then one `actBatch` call answers them all, ordered by
 * episode index. Rounds therefore hold the same episodes whatever the timing of the envs, so a
 * seeded sampler gives the same samples on every run: round r uses `seed + r` (`firstRound` +
 * r with `seed`; without `seed` the agent picks its own).
 */
export function createLockstep(agent: BatchAgent, size: number, seed: number | undefined, firstRound = 0): Lockstep {
  const live = new Set<number>(Array.from({ length: size }, (_, index) => index));
  let pending: Pending[] = [];
  let round = firstRound;

  const flush = (): void => {
    if (live.size === 0 || pending.length < live.size) return;
    const batch = pending.sort((a, b) => a.index - b.index);
    pending = [];
    const { messages: _first, signal, ...sampling } = batch[0]!.options;
    const options: AgentActBatchOptions = {
      ...sampling,
      messages: batch.map((entry) => entry.options.messages),
      ...(seed === undefined ? {} : { seed: seed + round }),
      ...(signal ? { signal } : {}),
    };
    round++;
    agent.actBatch(options).then(
      (responses) => {
        batch.forEach((entry, row) => {
          const response = responses[row];
          if (response) entry.resolve(response);
          else entry.reject(new Error(`${agent.id}.actBatch() returned ${responses.length} responses for ${batch.length} chats.`));
        });
      },
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  };

  return {
    get rounds() {
      return round - firstRound;
    },
    agentFor: (index) => ({
      specificationVersion: 'v1',
      id: agent.id,
      act: (options) =>
        new Promise<AgentResponse>((resolve, reject) => {
          pending.push({ index, options, resolve, reject });
          flush();
        }),
    }),
    leave: (index) => {
      live.delete(index);
      flush();
    },
  };
}
