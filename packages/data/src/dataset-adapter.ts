import type { AnswerType } from '@saccade/core';
import type { DatasetFormatError, SourceLocation } from './dataset-format-error';

/** What a convert run knows: the input, where its images are, and the user's options. */
export interface AdapterContext {
  /** The input file or folder, absolute. */
  input: string;
  /** The folder the dataset's image paths are relative to, absolute (the adapter's default unless given). */
  images: string;
  /** A split to keep, for layouts that hold several in one file or folder (ScienceQA, IconQA). */
  split?: string;
  /** Overrides the dataset name written in each task (vlmgym, LLaVA). */
  datasetName?: string;
  /** Overrides the task family written in each task. */
  taskFamily?: string;
}

/** An image of a task as an adapter found it: an absolute path, and the source field that named it (for messages). */
export interface DraftImage {
  path: string;
  field: string;
}

/** A task before validation: images are absolute paths with the field that named them. */
export interface TaskDraft {
  id: string;
  dataset: string;
  taskFamily: string;
  images: DraftImage[];
  question: string;
  choices?: string[];
  answer: string | number | boolean | (string | number)[];
  answerType: AnswerType;
  metadata?: Record<string, unknown>;
}

/** A record left out on purpose (another split than the one asked for), with the reason; counted, never silent. */
export interface FilteredOut {
  filtered: string;
}

/** One source record, converted: its tasks (usually one), why it could not be, or why it was left out. */
export type ConvertItem =
  | { location: SourceLocation; tasks: TaskDraft[] }
  | { location: SourceLocation; error: DatasetFormatError }
  | { location: SourceLocation; filtered: string };

/**
 * Reads one public dataset in the layout it is published in and yields Saccade tasks. One adapter
 * per dataset, registered by name in `DATASET_ADAPTERS`.
 */
export interface DatasetAdapter {
  /** The dataset's name as the answer checkers know it (`ChartQA`, `CLEVR-Math`, …). */
  readonly name: string;
  /** Other names the CLI accepts (matched ignoring case and punctuation). */
  readonly aliases: readonly string[];
  /** VISTA-Gym's task family written into each task. */
  readonly taskFamily: string;
  /** What `--input` is, as the dataset ships it. */
  readonly input: string;
  /** What `--images` is, and its default. */
  readonly images: string;
  /**
   * Where `--input` lies in the folder the dataset downloads as, so that `--input` may name that
   * folder (or any folder on the way) instead of the file: paths from the download's root, `*` for
   * any name, `<split>` for `--split` (any split without it); a trailing `/` marks a folder input,
   * which `holds` recognises (a path pattern inside it, e.g. `*.json`). Without `layout` a
   * folder is passed to `read` as it is.
   */
  readonly layout?: { readonly paths: readonly string[]; readonly holds?: string };
  /**
   * The default images folder for an input (and output), from the published layout; undefined
   * when the layout does not fix it, so that `--images` is required.
   */
  defaultImages(input: string, output: string): string | undefined;
  /** The converted records, in the input's order. */
  read(context: AdapterContext): AsyncIterable<ConvertItem>;
}
