const marker = 'saccade.error';
const symbol = Symbol.for(marker);

/**
 * The base of every Saccade error. Recognise errors with `isInstance`, which checks a
 * `Symbol.for` marker and so works across package copies and realms, unlike `instanceof`.
 */
export class SaccadeError extends Error {
  private readonly [symbol] = true;

  override readonly cause?: unknown;

  constructor({ name, message, cause }: { name: string; message: string; cause?: unknown }) {
    super(message);
    this.name = name;
    this.cause = cause;
  }

  static isInstance(error: unknown): error is SaccadeError {
    return SaccadeError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, markerName: string): boolean {
    const markerSymbol = Symbol.for(markerName);
    return (
      error != null &&
      typeof error === 'object' &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
