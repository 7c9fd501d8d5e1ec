import { ServerRequestError } from './server-request-error';

/**
 * How a SessionStore names, limits, expires and disposes its entries (envs, tool trajectories), and
 * where it reports expiries and dispose errors.
 */
export interface SessionStoreOptions<VALUE> {
  /** What an entry is called in error messages, e.g. `environment` or `trajectory`. */
  kind: string;
  /** Entries unused this long are disposed (0 turns expiry off). */
  idleTimeoutMs: number;
  /** Most entries held at once; creating more is answered 503. */
  maxEntries: number;
  /** Frees an entry's resources (closes its env); errors are passed to `onError`. */
  dispose: (value: VALUE, id: string) => Promise<void> | void;
  onExpire?: (id: string, idleMs: number) => void;
  onError?: (error: unknown, id: string) => void;
}

interface Entry<VALUE> {
  value: VALUE;
  lastUsed: number;
}

/**
 * Per-id state of a service (envs, sessions, trajectories) with one lock per id, idle expiry and
 * disposal. Locks are taken all at once for a batch, so a batch that names a busy id is refused
 * (409) before any of its ids is touched.
 */
export class SessionStore<VALUE> {
  readonly #entries = new Map<string, Entry<VALUE>>();
  readonly #options: SessionStoreOptions<VALUE>;
  /** Ids a request holds, existing or about to be created. */
  readonly #locked = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionStoreOptions<VALUE>) {
    this.#options = options;
    if (options.idleTimeoutMs > 0) {
      // Sweep a few times per timeout; unref so an idle store never keeps the process alive.
      this.#timer = setInterval(() => void this.sweep(), Math.max(50, Math.min(60_000, options.idleTimeoutMs / 4)));
      this.#timer.unref();
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** When `id` was last used (ms since the epoch), or undefined when it is not held. */
  lastUsed(id: string): number | undefined {
    return this.#entries.get(id)?.lastUsed;
  }

  /** The value for `id` without counting it as a use (listings), or undefined. */
  peek(id: string): VALUE | undefined {
    return this.#entries.get(id)?.value;
  }

  /** Whether a request holds `id` now. */
  isBusy(id: string): boolean {
    return this.#locked.has(id);
  }

  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /** The value for `id`; 404 when there is none. */
  get(id: string): VALUE {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw this.#notFound([id]);
    entry.lastUsed = Date.now();
    return entry.value;
  }

  /** Throws 503 when `count` more entries would not fit. */
  assertRoom(count: number): void {
    if (this.#entries.size + count > this.#options.maxEntries) {
      throw new ServerRequestError({
        statusCode: 503,
        message: `Too many ${this.#options.kind}s: ${this.#entries.size} held, ${count} more asked, the limit is ${this.#options.maxEntries}. Close some first.`,
      });
    }
  }

  /** Stores `value` under `id`, disposing what was there (the caller holds its lock, or it is new). */
  async set(id: string, value: VALUE): Promise<void> {
    const previous = this.#entries.get(id);
    this.#entries.set(id, { value, lastUsed: Date.now() });
    if (previous !== undefined) await this.#dispose(previous.value, id);
  }

  /**
   * Locks every id (404 for unknown ones unless `allowMissing`, 409 when one is busy) and returns
   * a function that unlocks them. Nothing is locked when it throws.
   */
  acquire(ids: readonly string[], { allowMissing = false } = {}): () => void {
    const missing = ids.filter((id) => !this.#entries.has(id));
    if (missing.length > 0 && !allowMissing) throw this.#notFound(missing);
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw new ServerRequestError({ statusCode: 400, message: `The ${this.#options.kind} id "${id}" appears twice in one request; expected each id at most once.` });
      seen.add(id);
      if (this.#locked.has(id)) {
        throw new ServerRequestError({ statusCode: 409, message: `The ${this.#options.kind} "${id}" is busy with another request; expected one request per id at a time.` });
      }
    }
    for (const id of ids) this.#locked.add(id);
    this.#touch(ids);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) this.#locked.delete(id);
      this.#touch(ids);
    };
  }

  /** Removes and disposes `id`; returns whether it was there. */
  async delete(id: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#entries.delete(id);
    await this.#dispose(entry.value, id);
    return true;
  }

  /** Disposes entries idle longer than the timeout (never one in use). */
  async sweep(now = Date.now()): Promise<void> {
    const { idleTimeoutMs, onExpire } = this.#options;
    if (idleTimeoutMs <= 0) return;
    const expired = [...this.#entries].filter(([id, entry]) => !this.#locked.has(id) && now - entry.lastUsed >= idleTimeoutMs);
    await Promise.all(
      expired.map(async ([id, entry]) => {
        onExpire?.(id, now - entry.lastUsed);
        await this.delete(id);
      }),
    );
  }

  /** Stops expiry and disposes every entry (shutdown). */
  async clear(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.all(this.ids().map((id) => this.delete(id)));
  }

  #touch(ids: readonly string[]): void {
    const now = Date.now();
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry !== undefined) entry.lastUsed = now;
    }
  }

  async #dispose(value: VALUE, id: string): Promise<void> {
    try {
      await this.#options.dispose(value, id);
    } catch (error) {
      this.#options.onError?.(error, id);
    }
  }

  #notFound(ids: readonly string[]): ServerRequestError {
    const shown = ids.slice(0, 5).map((id) => JSON.stringify(id)).join(', ');
    const more = ids.length > 5 ? ` and ${ids.length - 5} more` : '';
    return new ServerRequestError({
      statusCode: 404,
      message: `Unknown ${this.#options.kind} id${ids.length > 1 ? 's' : ''} ${shown}${more}: create ${ids.length > 1 ? 'them' : 'it'} first (it may also have expired after ${this.#options.idleTimeoutMs} ms idle).`,
    });
  }
}
