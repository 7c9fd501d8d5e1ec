import { access, readdir } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** How image paths under the images folder are read when the folder is one level off the layout. */
type Shift = (segments: string[]) => string[];

/**
 * Finds a task's images under the images folder, accepting the folder one level off the published
 * layout when that is unambiguous: one level down (`--images CLEVR_v1.0/images/val` where the
 * layout says `images/` and the paths `val/<file>`), or one level up (`--images CLEVR_v1.0`, whose
 * one subfolder holding the path is `images/`). The first image found that way fixes the reading
 * for the rest of the run.
 */
export class ImageLocator {
  private shift: Shift | undefined;
  private subfolders: Promise<string[]> | undefined;

  constructor(readonly folder: string) {}

  /** The path where the image is, or undefined when it is nowhere (or could be in several places). */
  async locate(path: string): Promise<string | undefined> {
    const rel = relative(this.folder, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return (await exists(path)) ? path : undefined;
    const segments = rel.split(sep);
    if (this.shift !== undefined) {
      const moved = join(this.folder, ...this.shift(segments));
      if (await exists(moved)) return moved;
    }
    if (await exists(path)) return path;
    if (this.shift !== undefined) return undefined;

    const name = basename(this.folder);
    const candidates: { shift: Shift; path: string }[] = [];
    const down: Shift = (parts) => (parts.length >= 2 && parts[0] === name ? parts.slice(1) : parts);
    if (segments.length >= 2 && segments[0] === name) candidates.push({ shift: down, path: join(this.folder, ...down(segments)) });
    for (const subfolder of await this.listSubfolders()) candidates.push({ shift: (parts) => [subfolder, ...parts], path: join(this.folder, subfolder, ...segments) });
    const found: { shift: Shift; path: string }[] = [];
    for (const candidate of candidates) if (await exists(candidate.path)) found.push(candidate);
    const [only, ...others] = found;
    if (only === undefined || others.length > 0) return undefined;
    this.shift = only.shift;
    return only.path;
  }

  private listSubfolders(): Promise<string[]> {
    this.subfolders ??= readdir(this.folder, { withFileTypes: true }).then(
      (entries) => entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
      () => [],
    );
    return this.subfolders;
  }
}
