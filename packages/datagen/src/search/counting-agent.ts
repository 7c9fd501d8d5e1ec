import type { Agent, AgentActOptions, AgentResponse } from '@saccade/spec';

/** An agent that counts what it is asked: `act` calls and generations (one per output). */
export interface CountingAgent extends Agent {
  readonly actCalls: number;
  readonly generations: number;
}

/** Wraps an agent to count its calls; search budgets are compared in generations. */
export function countAgentCalls(agent: Agent): CountingAgent {
  let actCalls = 0;
  let generations = 0;
  return {
    specificationVersion: 'v1',
    id: agent.id,
    get actCalls() {
      return actCalls;
    },
    get generations() {
      return generations;
    },
    async act(options: AgentActOptions): Promise<AgentResponse> {
      actCalls += 1;
      generations += options.n ?? 1;
      return agent.act(options);
    },
  };
}
