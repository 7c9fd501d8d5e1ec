import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_AgentResponseError';
const marker = 'saccade.error.agent-response';
const symbol = Symbol.for(marker);

/**
 * A model server answered 2xx with a body Saccade cannot use: not JSON, or JSON that does not
 * match the chat-completions schema. The message says what was expected and what came.
 */
export class AgentResponseError extends SaccadeError {
  private readonly [symbol] = true;

  readonly url: string;
  readonly expected: string;
  readonly received: string;
  /** The first characters of the body. */
  readonly bodyExcerpt: string;

  constructor({
    url,
    expected,
    received,
    bodyExcerpt,
    cause,
  }: {
    url: string;
    expected: string;
    received: string;
    bodyExcerpt: string;
    cause?: unknown;
  }) {
    super({
      name,
      message: `POST ${url} returned an unusable body: expected ${expected}, received ${received}. Body: ${bodyExcerpt}`,
      cause,
    });
    this.url = url;
    this.expected = expected;
    this.received = received;
    this.bodyExcerpt = bodyExcerpt;
  }

  static override isInstance(error: unknown): error is AgentResponseError {
    return SaccadeError.hasMarker(error, marker);
  }
}
