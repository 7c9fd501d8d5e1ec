import { mkdir, writeFile, access } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { contentHash, sniffMediaType } from '@saccade/image';
import type { DraftImage } from './dataset-adapter';
import type { RecordFields } from './record-fields';

/** An image file, resolved against the dataset's images folder; `field` says where it came from, for messages. */
export function imageFile(folder: string, relative: string, field: string): DraftImage {
  return { path: isAbsolute(relative) ? relative : resolve(folder, relative), field };
}

/** An image named by a source field, resolved against the dataset's images folder. */
export function imageAt(fields: RecordFields, name: string, folder: string, relative: string): DraftImage {
  return imageFile(folder, relative, fields.path(name));
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Writes an image embedded in a record (a Parquet `{bytes, path}` struct, as Hugging Face
 * datasets store images) into `folder` under its content hash, once, and returns it as a task
 * image. A value that holds no PNG, JPEG or WebP bytes is a format error naming the field.
 */
export async function saveEmbeddedImage(fields: RecordFields, name: string | number, value: unknown, folder: string): Promise<DraftImage> {
  const bytes = embeddedBytes(value);
  const mediaType = bytes === undefined ? undefined : sniffMediaType(bytes);
  if (bytes === undefined || mediaType === undefined) fields.fail(name, 'an image ({bytes, path} with PNG, JPEG or WebP bytes)', value);
  const file = join(folder, `${contentHash(bytes).slice(0, 32)}.${EXTENSIONS[mediaType]}`);
  try {
    await access(file);
  } catch {
    await mkdir(folder, { recursive: true });
    await writeFile(file, bytes);
  }
  return { path: file, field: fields.path(name) };
}

function embeddedBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'object' && value !== null && (value as { bytes?: unknown }).bytes instanceof Uint8Array) return (value as { bytes: Uint8Array }).bytes;
  return undefined;
}
