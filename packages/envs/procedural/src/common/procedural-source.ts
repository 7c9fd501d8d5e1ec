import { createRng, type AnswerType, type Rng, type TaskSource, type VisionQATask } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import { InvalidArgumentError } from '@saccade/spec';
import { checkDifficulty } from './difficulty';
import { checkSplit, seedForIndex, type Split } from './split';

/** What a generator draws for one seed: the picture as SVG and everything needed to check an answer. */
export interface GeneratedSample {
  svg: string;
  width: number;
  height: number;
  question: string;
  answer: VisionQATask['answer'];
  answerType: AnswerType;
  choices?: string[];
  /** The ground truth behind the answer (data, coordinates, target boxes), for checks and tools. */
  metadata: Record<string, unknown>;
}

/** A generator: a name, the checker its answers need, and a pure function of (random numbers, settings). */
export interface GeneratorDefinition<SETTINGS> {
  /** Short name, used in task ids: `charts`, `geometry`, … */
  name: string;
  /** The task's `dataset`: `Procedural-Charts`, … (registered as an alias of `checker`). */
  dataset: string;
  taskFamily: string;
  /** The answer checker's name (`ChartQA`, `Geometry3K`, …), as `getAnswerChecker` knows it. */
  checker: string;
  /** The generator's own option names (besides split and difficulty). */
  options: readonly string[];
  /**
   * The options a named preset stands for (a visual-search `level`), under the ones given: called
   * before the difficulty is read, so a preset may set it. Throws InvalidArgumentError for an
   * unknown preset. Without it the options are used as given.
   */
  expandOptions?(options: Record<string, unknown>): Record<string, unknown>;
  /** Validates generator-specific options (throws InvalidArgumentError) and fills defaults. */
  settings(options: Record<string, unknown>, difficulty: number): SETTINGS;
  generate(rng: Rng, settings: SETTINGS, difficulty: number): GeneratedSample;
}

/** Options every procedural source takes: the split and the difficulty. */
export interface ProceduralSourceOptions {
  /** `train` (default) or `test`: disjoint seed ranges, see SPLIT_SEED_RANGES. */
  split?: Split;
  /** 0 (easiest) to 1 (hardest); default 0.5. */
  difficulty?: number;
}

/** A generated task with its SVG kept beside it (tests and tools re-render or edit it). */
export interface ProceduralSample {
  task: VisionQATask;
  svg: string;
}

/**
 * Renders shared by every source in the process, least recently used first out past a byte budget
 * of encoded images: a training run makes an env per episode, so its GRPO groups (one seed, many
 * episodes) and its held-out evaluations (the same seeds each time) would otherwise render each
 * task again — 50 ms for a 2048-px visual-search image.
 */
const RENDER_BUDGET_BYTES = 128 * 1024 * 1024;
const renders = new Map<string, { sample: Promise<ProceduralSample>; bytes: number }>();
let renderBytes = 0;

function sharedRender(key: string, build: () => Promise<ProceduralSample>): Promise<ProceduralSample> {
  const found = renders.get(key);
  if (found !== undefined) {
    renders.delete(key);
    renders.set(key, found);
    return found.sample;
  }
  const entry = { sample: build(), bytes: 0 };
  renders.set(key, entry);
  entry.sample.then(
    ({ task }) => {
      if (renders.get(key) !== entry) return;
      entry.bytes = task.images.reduce((sum, image) => sum + (typeof image === 'string' ? 0 : image.data.byteLength), 0);
      renderBytes += entry.bytes;
      for (const [oldest, old] of renders) {
        if (renderBytes <= RENDER_BUDGET_BYTES || oldest === key) break;
        renders.delete(oldest);
        renderBytes -= old.bytes;
      }
    },
    () => {
      if (renders.get(key) === entry) renders.delete(key);
    },
  );
  return entry.sample;
}

/**
 * An endless task source over a generator: `get(index)` draws task `index` of the split from its
 * own seed, so the same index always gives the same question and the same PNG bytes. Renders are
 * kept in a cache shared by the process's sources (same generator, settings, split and seed).
 */
export class ProceduralSource<SETTINGS> implements TaskSource {
  readonly description: string;
  readonly split: Split;
  readonly difficulty: number;
  readonly definition: GeneratorDefinition<SETTINGS>;
  readonly settings: SETTINGS;
  readonly #key: string;

  constructor(definition: GeneratorDefinition<SETTINGS>, options: ProceduralSourceOptions & Record<string, unknown> = {}) {
    if (options === null || typeof options !== 'object') throw new InvalidArgumentError({ argument: 'options', expected: 'an object', value: options });
    this.definition = definition;
    this.split = checkSplit(options.split ?? 'train');
    const expanded = definition.expandOptions?.(options) ?? options;
    this.difficulty = checkDifficulty(expanded.difficulty);
    this.settings = definition.settings(expanded, this.difficulty);
    this.description = `procedural ${definition.name} (${this.split} split, difficulty ${this.difficulty})`;
    this.#key = JSON.stringify([definition.name, this.split, this.difficulty, this.settings]);
  }

  async size(): Promise<number> {
    return Infinity;
  }

  async get(index: number): Promise<VisionQATask> {
    return (await this.sample(index)).task;
  }

  /** The task and the SVG it was rendered from. */
  sample(index: number): Promise<ProceduralSample> {
    const seed = seedForIndex(this.split, index);
    return sharedRender(`${this.#key}:${seed}`, () => this.#build(index, seed));
  }

  /** The generator's drawing for `index` without rendering it (cheap; for sweeps over many seeds). */
  generate(index: number): GeneratedSample & { seed: number } {
    const seed = seedForIndex(this.split, index);
    // Forked by generator name, so charts seed 5 and geometry seed 5 draw unrelated numbers.
    const rng = createRng(seed).fork(this.definition.name);
    return { ...this.definition.generate(rng, this.settings, this.difficulty), seed };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<VisionQATask> {
    for (let index = 0; ; index++) yield await this.get(index);
  }

  /** Nothing to free: renders live in the process-wide cache, which other sources share. */
  async close(): Promise<void> {}

  async #build(index: number, seed: number): Promise<ProceduralSample> {
    const sample = this.generate(index);
    const image = await renderSvg(sample.svg, { width: sample.width, height: sample.height, format: 'image/png' });
    const { name, dataset, taskFamily, checker } = this.definition;
    const task: VisionQATask = {
      id: `${name}-${this.split}-${seed}`,
      dataset,
      taskFamily,
      images: [{ data: image.data, mediaType: 'image/png', width: sample.width, height: sample.height }],
      question: sample.question,
      answer: sample.answer,
      answerType: sample.answerType,
      metadata: { generator: name, split: this.split, seed, index, difficulty: this.difficulty, checker, ...sample.metadata },
    };
    if (sample.choices !== undefined) task.choices = sample.choices;
    return { task, svg: sample.svg };
  }
}

/** Options a generator does not know are refused, naming the ones it does. */
export function checkKnownOptions(options: Record<string, unknown>, known: readonly string[], generator: string): void {
  for (const key of Object.keys(options)) {
    if (key === 'split' || key === 'difficulty' || options[key] === undefined) continue;
    if (!known.includes(key)) {
      throw new InvalidArgumentError({ argument: key, expected: `an option of the ${generator} generator: split, difficulty${known.map((name) => `, ${name}`).join('')}`, value: options[key] });
    }
  }
}

/** A multiple-choice block: the options shuffled, with the answer's index recorded. */
export function multipleChoice(rng: Rng, answer: string, distractors: readonly string[]): { choices: string[]; answerIndex: number } {
  const choices = rng.shuffle([answer, ...distractors]);
  return { choices, answerIndex: choices.indexOf(answer) };
}
