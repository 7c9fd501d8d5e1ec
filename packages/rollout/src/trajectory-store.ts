import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm, stat, truncate, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contentHash } from '@saccade/image';
import { InvalidArgumentError, InvalidStateError, type ImageData, type ImageRef, type Trajectory } from '@saccade/spec';
import { imageFileName } from './store-observation';
import { streamTrajectories, type StreamTrajectoriesOptions } from './stream-trajectories';

/**
 * The JSONL file a trajectory store appends to, where its images go, and whether each line is
 * fsynced.
 */
export interface OpenTrajectoryStoreOptions {
  /** The JSONL file, e.g. `runs/a/trajectories/rollouts.jsonl`; created with its folder when missing. */
  path: string;
  /** Where image files go. Default: `images/` beside the JSONL file. */
  imagesDirectory?: string;
  /** fsync after each line, so that lines survive a power cut too, not only a crash. Default false. */
  durable?: boolean;
}

/** Image bytes by content hash (what `runRollouts` hands over), or a list of images to hash. */
export type StoreImages = ReadonlyMap<string, ImageData> | Iterable<ImageData>;

/**
 * An append-only trajectory file with content-addressed images beside it. One process writes a
 * file at a time; any number may read it.
 */
export interface TrajectoryStore {
  readonly path: string;
  readonly imagesDirectory: string;
  /** Bytes of a torn last line (a crash mid-write) that opening cut off; 0 for a clean file. */
  readonly repairedBytes: number;
  /** Trajectories appended through this store since it was opened. */
  readonly appended: number;
  /**
   * Writes the trajectory's new images (each once, under its hash), then the trajectory as one line
   * in a single append. Every image the trajectory refers to must be given or already stored.
   */
  append(trajectory: Trajectory, images?: StoreImages): Promise<void>;
  /** Streams the file's trajectories; see `streamTrajectories`. */
  read(options?: StreamTrajectoriesOptions): AsyncGenerator<Trajectory>;
  /** The bytes of a stored image. */
  readImage(image: Pick<ImageRef, 'hash' | 'mediaType'>): Promise<ImageData>;
  close(): Promise<void>;
}

/**
 * Opens (or creates) a trajectory store. A torn last line left by a crash is cut off first, so
 * that the next line starts on a line of its own.
 *
 * @example
 * const store = await openTrajectoryStore({ path: 'runs/a/trajectories/rollouts.jsonl' });
 * await runRollouts({ prompts, agent, groupSize: 8, store });
 * for await (const trajectory of store.read({ filter: { success: true } })) console.log(trajectory.id);
 */
export async function openTrajectoryStore(options: OpenTrajectoryStoreOptions): Promise<TrajectoryStore> {
  if (typeof options?.path !== 'string' || options.path.length === 0) {
    throw new InvalidArgumentError({ argument: 'path', expected: 'the path of a JSONL file', value: options?.path });
  }
  const path = options.path;
  const imagesDirectory = options.imagesDirectory ?? join(dirname(path), 'images');
  await mkdir(dirname(path), { recursive: true });
  await mkdir(imagesDirectory, { recursive: true });
  const repairedBytes = await cutTornTail(path);
  const handle = await open(path, 'a');
  return new FileTrajectoryStore(path, imagesDirectory, handle, repairedBytes, options.durable === true);
}

class FileTrajectoryStore implements TrajectoryStore {
  appended = 0;
  readonly #handle: FileHandle;
  readonly #durable: boolean;
  /** Images known to be on disk, or being written (the promise settles when the file is there). */
  readonly #images = new Map<string, Promise<void>>();
  /** Lines are written one at a time, so that a short write can be finished before the next line. */
  #tail: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    readonly path: string,
    readonly imagesDirectory: string,
    handle: FileHandle,
    readonly repairedBytes: number,
    durable: boolean,
  ) {
    this.#handle = handle;
    this.#durable = durable;
  }

  async append(trajectory: Trajectory, images?: StoreImages): Promise<void> {
    if (this.#closed) {
      throw new InvalidStateError({ operation: 'TrajectoryStore.append()', expected: 'an open store', actual: 'it was closed' });
    }
    if (typeof trajectory !== 'object' || trajectory === null || typeof trajectory.id !== 'string' || !Array.isArray(trajectory.turns)) {
      throw new InvalidArgumentError({ argument: 'trajectory', expected: 'a Trajectory with an id and turns', value: trajectory });
    }
    const given = byHash(images);
    // Images first: a line on disk never refers to an image that is not.
    await Promise.all(referencedImages(trajectory).map((reference) => this.#storeImage(reference, given, trajectory.id)));
    const line = Buffer.from(`${JSON.stringify(trajectory)}\n`, 'utf8');
    const written = this.#tail.then(() => this.#writeLine(line));
    this.#tail = written.catch(() => undefined);
    await written;
    this.appended++;
  }

  async #writeLine(line: Buffer): Promise<void> {
    // The file is opened with O_APPEND: one write(2) of the whole line lands at the end in one
    // piece. A short write (disk full, signal) is finished so the line is never left half-written.
    let offset = 0;
    while (offset < line.length) {
      const { bytesWritten } = await this.#handle.write(line, offset, line.length - offset);
      offset += bytesWritten;
    }
    if (this.#durable) await this.#handle.datasync();
  }

  #storeImage(reference: ImageRef, given: Map<string, ImageData>, trajectoryId: string): Promise<void> {
    let pending = this.#images.get(reference.hash);
    if (pending === undefined) {
      pending = this.#writeImage(reference, given.get(reference.hash), trajectoryId);
      this.#images.set(reference.hash, pending);
      // A failed write is retried by the next trajectory that refers to the image.
      pending.catch(() => this.#images.delete(reference.hash));
    }
    return pending;
  }

  async #writeImage(reference: ImageRef, image: ImageData | undefined, trajectoryId: string): Promise<void> {
    const file = join(this.imagesDirectory, imageFileName(reference));
    if (await exists(file)) return;
    if (image === undefined) {
      throw new InvalidArgumentError({
        argument: 'images',
        expected: 'the bytes of every image the trajectory refers to',
        value: reference.hash,
        message:
          `Invalid argument images: expected the bytes of every image the trajectory refers to, but trajectory ${trajectoryId} ` +
          `refers to image ${reference.hash}, which was neither given nor stored.`,
      });
    }
    // Written under a temporary name and renamed, so a crash never leaves half an image.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(image.data);
      if (this.#durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  read(options?: StreamTrajectoriesOptions): AsyncGenerator<Trajectory> {
    return streamTrajectories(this.path, options);
  }

  async readImage(image: Pick<ImageRef, 'hash' | 'mediaType'>): Promise<ImageData> {
    const data = await readFile(join(this.imagesDirectory, imageFileName(image)));
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), mediaType: image.mediaType };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tail;
    await this.#handle.close();
  }
}

/** Every image reference in a trajectory (turn observations and the final one), each hash once. */
function referencedImages(trajectory: Trajectory): ImageRef[] {
  const seen = new Map<string, ImageRef>();
  const add = (images: readonly ImageRef[] | undefined): void => {
    for (const image of images ?? []) if (!seen.has(image.hash)) seen.set(image.hash, image);
  };
  for (const turn of trajectory.turns) add(turn.observation?.images);
  add(trajectory.finalObservation?.images);
  return [...seen.values()];
}

function byHash(images: StoreImages | undefined): Map<string, ImageData> {
  if (images === undefined) return new Map();
  if (images instanceof Map) return images as Map<string, ImageData>;
  const map = new Map<string, ImageData>();
  for (const image of images as Iterable<ImageData>) map.set(contentHash(image.data), image);
  return map;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Cuts a file back to just after its last newline; returns how many bytes went. A process killed
 * in the middle of a write leaves at most one partial line, always at the end.
 */
async function cutTornTail(path: string): Promise<number> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return 0;
  }
  if (size === 0) return 0;
  const handle = await open(path, 'r');
  let keep = 0;
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let end = size;
    search: while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await handle.read(chunk, 0, end - start, start);
      for (let i = bytesRead - 1; i >= 0; i--) {
        if (chunk[i] === 0x0a) {
          keep = start + i + 1;
          break search;
        }
      }
      end = start;
    }
  } finally {
    await handle.close();
  }
  if (keep === size) return 0;
  await truncate(path, keep);
  return size - keep;
}
