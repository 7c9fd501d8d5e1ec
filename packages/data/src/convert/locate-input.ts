import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { DatasetAdapter } from '../dataset-adapter';
import { DatasetFormatError } from '../dataset-format-error';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One path segment of a layout as a pattern: `*` any name, `<split>` the split (any without one). */
function segmentPattern(segment: string, split: string | undefined): RegExp {
  const source = segment
    .split(/(\*|<split>)/)
    .map((part) => (part === '*' ? '[^/]*' : part === '<split>' ? (split === undefined ? '[^/]+' : escape(split)) : escape(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

async function isFolder(path: string): Promise<boolean | undefined> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return undefined;
  }
}

/** The paths under `folder` that match `segments` one level each, files or folders, in name order. */
async function* glob(folder: string, segments: readonly RegExp[], kind: 'file' | 'folder'): AsyncGenerator<string> {
  const [first, ...rest] = segments;
  if (first === undefined) return;
  let names: string[];
  try {
    names = (await readdir(folder)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (!first.test(name)) continue;
    const path = join(folder, name);
    const folderHere = await isFolder(path);
    if (folderHere === undefined) continue;
    if (rest.length > 0) {
      if (folderHere) yield* glob(path, rest, kind);
    } else if (folderHere === (kind === 'folder')) yield path;
  }
}

/** Whether `folder` holds a file matching `pattern` (a path of segments under it). */
async function holds(folder: string, pattern: string): Promise<boolean> {
  for await (const found of glob(folder, pattern.split('/').map((segment) => segmentPattern(segment, undefined)), 'file')) {
    if (found !== undefined) return true;
  }
  return false;
}

/** A folder's first entries for messages, folders with a trailing `/`: `questions/, images/, ai2d_test_ids.csv`. */
export async function describeFolder(folder: string, shown = 8): Promise<string> {
  let names: string[];
  try {
    names = (await readdir(folder, { withFileTypes: true })).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
  } catch (error) {
    return `a folder that cannot be read (${(error as Error).message})`;
  }
  if (names.length === 0) return 'an empty folder';
  const more = names.length > shown ? `, … (${names.length - shown} more)` : '';
  return `a folder holding ${names.slice(0, shown).join(', ')}${more}`;
}

const show = (folder: string, path: string) => relative(folder, path).split(sep).join('/');

/**
 * The file or folder an adapter reads for `input`: `input` itself when it is a file (or a folder
 * the adapter reads as it is), else the one place its published layout puts the input under that
 * folder, matched from the download's root or from any folder on the way (ScienceQA's repository,
 * `data/` or `data/scienceqa/` all find `problems.json`), else the folder itself when it holds
 * what a folder input holds. No match, or several (ChartQA's `_human` and `_augmented` files;
 * every split without `--split`), is a `DatasetFormatError` saying where it looked and what it found.
 */
export async function locateInput(adapter: DatasetAdapter, input: string, split: string | undefined): Promise<string> {
  const folder = await isFolder(input);
  if (folder === undefined) throw new DatasetFormatError({ location: { file: input }, field: '(file)', expected: `${adapter.name}'s ${adapter.input}`, received: 'nothing (no such file or folder)' });
  const layout = adapter.layout;
  if (!folder || layout === undefined) return input;
  if (layout.paths.length === 0) {
    throw new DatasetFormatError({ location: { file: input }, field: '(file)', expected: `a file: ${adapter.name}'s ${adapter.input}`, received: await describeFolder(input) });
  }

  const found = new Set<string>();
  const tried: string[] = [];
  for (const path of layout.paths) {
    const kind = path.endsWith('/') ? 'folder' : 'file';
    const segments = path.replace(/\/$/, '').split('/');
    for (let start = 0; start < segments.length; start++) {
      const suffix = segments.slice(start);
      const shown = suffix.join('/').replaceAll('<split>', split ?? '<split>') + (kind === 'folder' ? '/' : '');
      if (!tried.includes(shown)) tried.push(shown);
      for await (const match of glob(input, suffix.map((segment) => segmentPattern(segment, split)), kind)) {
        if (kind === 'folder' && layout.holds !== undefined && !(await holds(match, layout.holds))) continue;
        found.add(match);
      }
    }
  }
  const [only, ...others] = [...found].sort();
  if (only !== undefined && others.length === 0) return only;
  // The input folder itself (AI2D's questions/, a Geometry3K split), when nothing below is one.
  if (only === undefined && layout.holds !== undefined && (await holds(input, layout.holds))) return input;
  if (only === undefined) {
    throw new DatasetFormatError({
      location: { file: input },
      field: '(folder)',
      expected: `${adapter.name}'s ${adapter.input}, or a folder holding it as published (looked for ${tried.join(', ')})`,
      received: await describeFolder(input),
    });
  }
  const splitHint = split === undefined && layout.paths.some((path) => path.includes('<split>')) ? ' (--split picks one split)' : '';
  throw new DatasetFormatError({
    location: { file: input },
    field: '(folder)',
    expected: `one ${adapter.name} input in the folder${splitHint}`,
    received: `several: ${[only, ...others].map((path) => show(input, path)).join(', ')}; give the one to convert as --input`,
  });
}
