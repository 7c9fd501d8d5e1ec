import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_OracleNotFoundError';
const marker = 'saccade.error.oracle-not-found';
const symbol = Symbol.for(marker);

/** The oracle agent found no `oracleResponse()` on the env or any env it wraps, and no `oracle` was given. */
export class OracleNotFoundError extends SaccadeError {
  private readonly [symbol] = true;

  readonly envId: string;
  /** The class names met while walking the `.env` chain, outermost first. */
  readonly chain: string[];

  constructor({ envId, chain }: { envId: string; chain: string[] }) {
    super({
      name,
      message:
        `Env ${envId} has no oracle: expected an oracleResponse() method on the env or an env it wraps ` +
        `(checked ${chain.join(' → ')}), or an \`oracle\` function in createOracleAgent's settings.`,
    });
    this.envId = envId;
    this.chain = chain;
  }

  static override isInstance(error: unknown): error is OracleNotFoundError {
    return SaccadeError.hasMarker(error, marker);
  }
}
