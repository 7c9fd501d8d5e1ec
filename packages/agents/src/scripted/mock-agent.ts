import { InvalidArgumentError, InvalidStateError, type Agent, type AgentActOptions, type AgentResponse } from '@saccade/spec';

/** One canned answer: a text (copied for each of `n` samples), a full response, an error to throw, or a function of the call. */
export type MockResponse =
  | string
  | AgentResponse
  | Error
  | ((options: AgentActOptions, call: number) => string | AgentResponse | Promise<string | AgentResponse>);

/** The canned answers a mock agent replays, one per `act` call, and its id. */
export interface MockAgentSettings {
  /** Answers in order, one per `act` call. */
  responses: readonly MockResponse[];
  id?: string;
}

/** A recorded call: the options `act` got (messages are copied, the signal is kept as is). */
export type RecordedCall = AgentActOptions;

/**
 * A real Agent for tests: records every call and replays canned answers in order. Throws an
 * `InvalidStateError` saying how many answers it was given when a call finds none left.
 *
 * @example
 * const agent = new MockAgent({ responses: ['<answer>Left</answer>', new Error('server down')] });
 * await agent.act({ messages });
 * agent.calls[0]!.messages; // what the agent saw
 */
export class MockAgent implements Agent {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly calls: RecordedCall[] = [];
  readonly #responses: readonly MockResponse[];

  constructor({ responses, id = 'mock' }: MockAgentSettings) {
    if (!Array.isArray(responses)) throw new InvalidArgumentError({ argument: 'responses', expected: 'an array of responses', value: responses });
    this.#responses = responses.slice();
    this.id = id;
  }

  /** Answers not used yet. */
  get remaining(): number {
    return this.#responses.length - this.calls.length;
  }

  async act(options: AgentActOptions): Promise<AgentResponse> {
    const call = this.calls.length;
    this.calls.push({ ...options, messages: structuredClone(options.messages) });
    options.signal?.throwIfAborted();
    const canned = this.#responses[call];
    if (canned === undefined) {
      const given = this.#responses.length;
      throw new InvalidStateError({
        operation: 'MockAgent.act()',
        expected: 'a canned response left',
        actual: `it was given ${given} response${given === 1 ? '' : 's'} and this is call ${call + 1}`,
      });
    }
    if (canned instanceof Error) throw canned;
    const value = typeof canned === 'function' ? await canned(options, call) : canned;
    if (typeof value === 'string') return { outputs: Array.from({ length: options.n ?? 1 }, () => ({ text: value, finishReason: 'stop' as const })) };
    return value;
  }
}

/** `new MockAgent(settings)`. */
export function createMockAgent(settings: MockAgentSettings): MockAgent {
  return new MockAgent(settings);
}
