/**
 * A small least-recently-used cache of rendered frames, shared by every grid env in the process:
 * the grid worlds have few distinct states, so most frames are encoded once. The key names the env,
 * the cell size and every cell's picture, so equal keys are equal pictures.
 */
export class PngCache {
  readonly #entries = new Map<string, Uint8Array>();

  constructor(readonly capacity: number) {}

  get(key: string): Uint8Array | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** The process-wide frame cache of the grid envs (4,096 frames, about 2 MB at the default size). */
export const gridFrameCache = new PngCache(4096);
