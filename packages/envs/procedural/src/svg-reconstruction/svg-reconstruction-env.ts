import { asciiLowerCase, indexForSeed, parseFinalAnswer, type VisionQATask } from '@saccade/core';
import { decodeImage, renderSvg } from '@saccade/image';
import { IMAGE_PLACEHOLDER, InvalidArgumentError, InvalidStateError, type Env, type EnvResetOptions, type ImageData, type ResetResult, type StepResult, type TextActionSpace } from '@saccade/spec';
import type { ProceduralSourceOptions } from '../common/procedural-source';
import { createSvgReconstructionSource, SVG_SIZE } from './svg-reconstruction-generator';
import { ssim, toGray } from './ssim';
import { reconstructionScore, type RgbImage } from './svg-score';

/** Options of {@link SvgReconstructionEnv}: turns, rewards and the similarity that scores an answer. */
export interface SvgReconstructionEnvOptions extends ProceduralSourceOptions {
  /** Turns per episode (default 2, as VAGEN's SVG env). */
  maxTurns?: number;
  /** Reward for a readable, renderable SVG answer (default 0.5, VAGEN's format reward). */
  formatReward?: number;
  /** Weight of the similarity term (default 1). */
  similarityWeight?: number;
  /**
   * The similarity the reward uses: `reconstruction` (default; the mean of the shapes matched by kind,
   * colour and box and a colour distance of the renders normalised so a blank canvas scores 0), or
   * `ssim` (the earlier score: SSIM of the grayscale renders, which a blank canvas already scores 0.6–0.9 on).
   */
  similarity?: SvgSimilarity;
  /** Similarity at which the episode ends as solved (default 0.95). */
  successThreshold?: number;
  /** Longest SVG answer accepted, in characters (default 20,000). */
  maxSvgLength?: number;
  /** The env id (default `saccade/SvgReconstruction-v1`). */
  id?: string;
}

/** The similarities the SVG reconstruction reward can use. */
export const SVG_SIMILARITIES = ['reconstruction', 'ssim'] as const;
/** One of {@link SVG_SIMILARITIES}. */
export type SvgSimilarity = (typeof SVG_SIMILARITIES)[number];

interface Episode {
  task: VisionQATask;
  target: RgbImage & { channels: number };
  seed: number;
  turn: number;
  best: number;
  done: boolean;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** A blank canvas: what the model "drew" when its SVG cannot be read or rendered. */
let blank: Promise<ImageData> | undefined;
const blankImage = () => (blank ??= renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_SIZE}" height="${SVG_SIZE}"/>`, { format: 'image/png' }).then((image) => ({ ...image, mediaType: 'image/png' as const })));

function positiveNumber(value: unknown, argument: string, fallback: number, { integer = false, max = Infinity } = {}): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max && (!integer || (Number.isInteger(value) && value >= 1))) return value;
  throw new InvalidArgumentError({ argument, expected: integer ? 'a positive integer' : `a number from 0 to ${max}`, value });
}

/**
 * VAGEN's SVG reconstruction: the observation is a target image; the answer is SVG code; the next
 * observation is the render of that code. Reward per turn: `format` (the SVG was read and rendered)
 * plus `similarity`: by default the reconstruction score (shapes matched by kind, colour and box, and a
 * colour distance of the renders normalised by a blank canvas; see `reconstructionScore`), or with
 * `similarity: 'ssim'` the earlier SSIM between the grayscale renders. Ends when the similarity
 * reaches `successThreshold` (terminated) or the turns run out (truncated).
 */
export class SvgReconstructionEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly source: ReturnType<typeof createSvgReconstructionSource>;
  readonly #maxTurns: number;
  readonly #formatReward: number;
  readonly #similarityWeight: number;
  readonly #successThreshold: number;
  readonly #maxSvgLength: number;
  readonly #similarity: SvgSimilarity;
  #episode: Episode | undefined;

  constructor(options: SvgReconstructionEnvOptions = {}) {
    const { maxTurns, formatReward, similarityWeight, successThreshold, maxSvgLength, similarity, id, ...sourceOptions } = options;
    this.id = id ?? 'saccade/SvgReconstruction-v1';
    this.source = createSvgReconstructionSource(sourceOptions);
    this.#maxTurns = positiveNumber(maxTurns, 'maxTurns', 2, { integer: true });
    this.#formatReward = positiveNumber(formatReward, 'formatReward', 0.5);
    this.#similarityWeight = positiveNumber(similarityWeight, 'similarityWeight', 1);
    this.#successThreshold = positiveNumber(successThreshold, 'successThreshold', 0.95, { max: 1 });
    this.#maxSvgLength = positiveNumber(maxSvgLength, 'maxSvgLength', 20_000, { integer: true });
    if (similarity !== undefined && !SVG_SIMILARITIES.includes(similarity)) throw new InvalidArgumentError({ argument: 'similarity', expected: `one of ${SVG_SIMILARITIES.join(', ')}`, value: similarity });
    this.#similarity = similarity ?? 'reconstruction';
  }

  systemPrompt(): string {
    return [
      'You reconstruct images as SVG code. You see a target image; write SVG code that draws it.',
      `Your SVG is rendered at ${SVG_SIZE}×${SVG_SIZE} pixels and compared with the target; you then see your render and may improve it.`,
      'Put the complete SVG document, <svg …>…</svg>, and nothing else, inside <answer>…</answer>.',
    ].join('\n');
  }

  get task(): VisionQATask {
    return this.#current('task').task;
  }

  async reset({ seed }: EnvResetOptions = {}): Promise<ResetResult> {
    const episodeSeed = seed ?? Math.floor(Math.random() * 2 ** 31);
    const index = indexForSeed(episodeSeed, Infinity);
    const task = await this.source.get(index);
    const image = task.images[0] as ImageData;
    const target = await decodeImage(image, { channels: 3 });
    this.#episode = { task, target, seed: episodeSeed, turn: 0, best: 0, done: false };
    const text = `${IMAGE_PLACEHOLDER}\n${task.question}\nYou have ${this.#maxTurns} attempt${this.#maxTurns === 1 ? '' : 's'}. Put your SVG code inside <answer>…</answer>.`;
    return { observation: { text, images: [image] }, info: { taskId: task.id, seed: episodeSeed, taskIndex: index, difficulty: this.source.difficulty, split: this.source.split } };
  }

  async step(action: string): Promise<StepResult> {
    const episode = this.#current();
    if (episode.done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    episode.turn++;
    const read = this.#readSvg(typeof action === 'string' ? action : '');
    let render: ImageData | undefined;
    let error = read.error;
    if (read.svg !== undefined) {
      try {
        const rendered = await renderSvg(read.svg, { width: SVG_SIZE, height: SVG_SIZE, format: 'image/png' });
        render = { ...rendered, mediaType: 'image/png' };
      } catch (caught) {
        error = `the SVG could not be rendered (${(caught as Error).message.split('\n')[0]})`;
      }
    }
    let scores = { reconstruction: 0, structural: 0, perceptual: 0, ssim: 0 };
    if (render !== undefined) {
      const drawn = await decodeImage(render, { channels: 3 });
      const { score, structural, perceptual } = reconstructionScore({ svg: String(episode.task.answer), image: episode.target }, { svg: read.svg!, image: drawn });
      scores = { reconstruction: score, structural, perceptual, ssim: Math.max(0, ssim(toGray(episode.target), toGray(drawn))) };
    }
    const similarity = scores[this.#similarity];
    episode.best = Math.max(episode.best, similarity);
    const terms = { format: render === undefined ? 0 : this.#formatReward, similarity: round(this.#similarityWeight * similarity) };
    const success = similarity >= this.#successThreshold;
    const terminated = success;
    const truncated = !terminated && episode.turn >= this.#maxTurns;
    episode.done = terminated || truncated;
    const left = this.#maxTurns - episode.turn;
    const verdict = render === undefined ? `I could not use your answer: ${error}. A blank canvas is shown.` : `Your SVG rendered; its similarity to the target is ${round(similarity).toFixed(3)}${this.#similarity === 'ssim' ? ' (SSIM)' : ` (shapes ${round(scores.structural).toFixed(3)}, pixels ${round(scores.perceptual).toFixed(3)})`}.`;
    const next = episode.done ? (success ? 'The reconstruction is close enough. The episode is over.' : 'No attempts remain.') : `You have ${left} attempt${left === 1 ? '' : 's'} left: compare your render with the target and answer with improved SVG code in <answer>…</answer>.`;
    const shown = render ?? (await blankImage());
    return {
      observation: { text: `${verdict}\n${IMAGE_PLACEHOLDER}\n${next}`, images: [shown] },
      reward: round(terms.format + terms.similarity),
      terminated,
      truncated,
      info: {
        taskId: episode.task.id,
        seed: episode.seed,
        rewardTerms: terms,
        metrics: { success, format_correct: render !== undefined, action_is_valid: render !== undefined, similarity: round(similarity), best_similarity: round(episode.best), structural: round(scores.structural), perceptual: round(scores.perceptual), ssim: round(scores.ssim), turn: episode.turn },
        ...(error === undefined ? {} : { formatError: error }),
      },
    };
  }

  /** A perfect answer: the target's own SVG code. */
  oracleResponse(): string {
    return `<answer>${String(this.#current('oracleResponse()').task.answer)}</answer>`;
  }

  /** Free text: SVG code inside `<answer>`. */
  actionSpace(): TextActionSpace {
    return { kind: 'text', answerType: 'svg', format: 'final-answer' };
  }

  async close(): Promise<void> {
    this.#episode = undefined;
    await this.source.close();
  }

  #current(operation = 'step()'): Episode {
    if (this.#episode === undefined) throw new InvalidStateError({ operation, expected: 'reset() to be called first', actual: 'no episode yet' });
    return this.#episode;
  }

  /** The first <svg …>…</svg> inside the answer; never throws on model output. */
  #readSvg(text: string): { svg?: string; error?: string } {
    const answer = parseFinalAnswer(text)?.answer;
    if (answer === undefined) return { error: 'expected SVG code inside <answer>…</answer>' };
    const start = answer.search(/<svg[\s>/]/i);
    const end = asciiLowerCase(answer).lastIndexOf('</svg>');
    const selfClosing = start === -1 ? null : /^<svg\b[^>]*\/>/i.exec(answer.slice(start));
    if (start === -1 || ((end === -1 || end < start) && selfClosing === null)) return { error: 'expected an <svg …>…</svg> document inside <answer>…</answer>' };
    const svg = end > start ? answer.slice(start, end + '</svg>'.length) : selfClosing![0];
    if (svg.length > this.#maxSvgLength) return { error: `expected at most ${this.#maxSvgLength} characters of SVG, received ${svg.length}` };
    // Markup without a namespace renders nothing in librsvg; add it rather than punish a common omission.
    return { svg: /xmlns\s*=/.test(svg.slice(0, svg.indexOf('>') + 1)) ? svg : svg.replace(/<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"') };
  }
}
