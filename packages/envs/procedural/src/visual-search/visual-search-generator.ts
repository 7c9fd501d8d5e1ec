import type { Rng } from '@saccade/core';
import { InvalidArgumentError } from '@saccade/spec';
import { lerp, levelInt } from '../common/difficulty';
import { COLOUR_NAMES, COLOURS, type ColourName } from '../common/palette';
import { checkKnownOptions, multipleChoice, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { num, svgDocument } from '../common/svg';

/** The shapes a visual-search target can have (distractors are never these). */
export const TARGET_SHAPES = ['star', 'cross', 'ring'] as const;
/** One of {@link TARGET_SHAPES}. */
export type TargetShape = (typeof TARGET_SHAPES)[number];
const DISTRACTOR_SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;
type DistractorShape = (typeof DISTRACTOR_SHAPES)[number];

/**
 * What is asked: `colour` (V*'s attribute question: the target is named by its shape, which only
 * shows up close; its colour is asked) or `shape` (the target is the only object of its colour, so
 * it can be found in the downscaled image; its shape, which needs a closer look, is asked).
 */
export type VisualSearchQuestion = 'colour' | 'shape';
export const VISUAL_SEARCH_QUESTIONS: readonly VisualSearchQuestion[] = ['colour', 'shape'];

/** Options of the visual-search source: the image's size, what is asked, and the target's colour. */
export interface VisualSearchOptions extends ProceduralSourceOptions {
  /** Side of the square image in pixels, at least 2048 (default 2048). */
  size?: number;
  /** What is asked about the target (default `colour`). */
  question?: VisualSearchQuestion;
  /**
   * With `question: 'shape'`, the target's colour (default: any palette colour, named in the
   * question). One fixed colour makes the search a single hop: find that colour's dot.
   */
  targetColour?: ColourName;
  /**
   * The target's centre is the centre of a cell of a targetGrid × targetGrid grid over the image,
   * never an edge cell (default: anywhere). A crop centred on the cell then holds the target in
   * its middle: the task still needs finding and a closer look, without reading a shape at every
   * offset in the crop (docs/training.md: reading measured alone).
   */
  targetGrid?: number;
}

interface VisualSearchSettings {
  size: number;
  question: VisualSearchQuestion;
  targetColour: ColourName | undefined;
  targetGrid: number | undefined;
}

/** `[x1, y1, x2, y2]` in pixels. */
export type Box = [number, number, number, number];

/** A star, cross or ring's outline as SVG, and its exact bounding box. */
function targetSvg(shape: TargetShape, x: number, y: number, radius: number, fill: string): { svg: string; box: Box } {
  if (shape === 'star') {
    const vertices = Array.from({ length: 10 }, (_, index) => {
      const r = index % 2 === 0 ? radius : radius * 0.45;
      const angle = (index * Math.PI) / 5 - Math.PI / 2;
      return { x: Math.round((x + r * Math.cos(angle)) * 100) / 100, y: Math.round((y + r * Math.sin(angle)) * 100) / 100 };
    });
    const xs = vertices.map((v) => v.x);
    const ys = vertices.map((v) => v.y);
    return {
      svg: `<polygon points="${vertices.map((v) => `${num(v.x)},${num(v.y)}`).join(' ')}" fill="${fill}"/>`,
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    };
  }
  if (shape === 'cross') {
    const arm = Math.max(2, Math.round(radius * 0.35));
    return {
      svg: `<rect x="${x - radius}" y="${y - arm}" width="${2 * radius}" height="${2 * arm}" fill="${fill}"/><rect x="${x - arm}" y="${y - radius}" width="${2 * arm}" height="${2 * radius}" fill="${fill}"/>`,
      box: [x - radius, y - radius, x + radius, y + radius],
    };
  }
  const stroke = Math.max(2, Math.round(radius * 0.35));
  return { svg: `<circle cx="${x}" cy="${y}" r="${radius - stroke / 2}" fill="none" stroke="${fill}" stroke-width="${stroke}"/>`, box: [x - radius, y - radius, x + radius, y + radius] };
}

function distractorSvg(shape: DistractorShape, x: number, y: number, r: number, fill: string): string {
  switch (shape) {
    case 'circle':
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}"/>`;
    case 'square':
      return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" fill="${fill}"/>`;
    case 'triangle':
      return `<polygon points="${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}" fill="${fill}"/>`;
    case 'diamond':
      return `<polygon points="${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}" fill="${fill}"/>`;
  }
}

const overlaps = (box: Box, x: number, y: number, r: number, margin: number) => x + r + margin > box[0] && x - r - margin < box[2] && y + r + margin > box[1] && y - r - margin < box[3];

/** Visual-search tasks: one small target among distractors in a large image, with its box in `metadata.targetBox`. */
export const visualSearchGenerator: GeneratorDefinition<VisualSearchSettings> = {
  name: 'visual-search',
  dataset: 'Procedural-VisualSearch',
  taskFamily: 'visual-search',
  checker: 'V*Bench',
  options: ['size', 'question', 'targetColour', 'targetGrid'],
  settings(options) {
    checkKnownOptions(options, this.options, 'visual-search');
    const size = (options as VisualSearchOptions).size ?? 2048;
    if (!Number.isInteger(size) || size < 2048 || size > 4096) throw new InvalidArgumentError({ argument: 'size', expected: 'an integer from 2048 to 4096 (pixels)', value: size });
    const question = (options as VisualSearchOptions).question ?? 'colour';
    if (!VISUAL_SEARCH_QUESTIONS.includes(question)) throw new InvalidArgumentError({ argument: 'question', expected: VISUAL_SEARCH_QUESTIONS.join(' | '), value: question });
    const targetColour = (options as VisualSearchOptions).targetColour;
    if (targetColour !== undefined && (question !== 'shape' || !COLOUR_NAMES.includes(targetColour))) {
      throw new InvalidArgumentError({ argument: 'targetColour', expected: `with question 'shape', one of ${COLOUR_NAMES.join(', ')}`, value: targetColour });
    }
    const targetGrid = (options as VisualSearchOptions).targetGrid;
    if (targetGrid !== undefined && (!Number.isInteger(targetGrid) || targetGrid < 3 || targetGrid > 16)) {
      throw new InvalidArgumentError({ argument: 'targetGrid', expected: 'an integer from 3 to 16 (cells a side)', value: targetGrid });
    }
    return { size, question, targetColour, targetGrid };
  },
  generate(rng: Rng, { size, question, targetColour, targetGrid }, difficulty) {
    // Harder: a smaller target among more, similar-sized distractors.
    const radius = Math.round(lerp(difficulty, 30, 10));
    const distractorCount = levelInt(difficulty, 40, 400);
    const shape = rng.pick(TARGET_SHAPES);
    const drawn = rng.pick(COLOUR_NAMES);
    const colour = targetColour ?? drawn;
    const cell = size / (targetGrid ?? 1);
    const x = targetGrid ? Math.round((rng.int(1, targetGrid - 2) + 0.5) * cell) : rng.int(100, size - 100);
    const y = targetGrid ? Math.round((rng.int(1, targetGrid - 2) + 0.5) * cell) : rng.int(100, size - 100);
    const target = targetSvg(shape, x, y, radius, COLOURS[colour]);
    const parts: string[] = [];
    // Pale patches break up the plain background, like regions of a photo.
    for (let index = 0; index < 12; index++) {
      const shade = rng.int(225, 245);
      parts.push(`<rect x="${rng.int(0, size - 200)}" y="${rng.int(0, size - 200)}" width="${rng.int(200, 900)}" height="${rng.int(200, 900)}" fill="rgb(${shade},${shade + 5},${Math.min(255, shade + 10)})"/>`);
    }
    // Asking the shape, the target's colour is its own: the one cue that survives downscaling.
    const distractorColours = question === 'shape' ? COLOUR_NAMES.filter((name) => name !== colour) : COLOUR_NAMES;
    let placed = 0;
    for (let attempt = 0; placed < distractorCount && attempt < distractorCount * 20; attempt++) {
      const r = Math.max(6, Math.round(radius * (0.7 + rng.next() * lerp(difficulty, 2.5, 0.6))));
      const dx = rng.int(r, size - r);
      const dy = rng.int(r, size - r);
      if (overlaps(target.box, dx, dy, r, 8)) continue;
      parts.push(distractorSvg(rng.pick(DISTRACTOR_SHAPES), dx, dy, r, COLOURS[rng.pick(distractorColours)]));
      placed++;
    }
    parts.push(target.svg);
    const targetBox = target.box.map((value) => Math.round(value * 100) / 100) as Box;
    const metadata = { target: { shape, colour: colour as ColourName, x, y, radius }, targetBox, distractors: placed };
    if (question === 'shape') {
      return {
        svg: svgDocument(size, size, parts.join(''), '#f8f8f6'),
        width: size,
        height: size,
        question: `There is exactly one ${colour} shape in this image; it is small. Is it a star, a cross or a ring?`,
        answer: shape,
        answerType: 'text',
        metadata,
      };
    }
    const { choices, answerIndex } = multipleChoice(rng.fork('choices'), colour, rng.shuffle(COLOUR_NAMES.filter((name) => name !== colour)).slice(0, 3));
    return {
      svg: svgDocument(size, size, parts.join(''), '#f8f8f6'),
      width: size,
      height: size,
      question: `There is exactly one ${shape} in this image; it is small. What is the colour of the ${shape}?`,
      answer: colour,
      answerType: 'multiple-choice',
      choices,
      metadata: { answer_index: answerIndex, ...metadata },
    };
  },
};

/** A large image (≥ 2048 px) with one small target among distractors; a colour question needs zooming. */
export function createVisualSearchSource(options: VisualSearchOptions = {}): ProceduralSource<VisualSearchSettings> {
  return new ProceduralSource(visualSearchGenerator, options as VisualSearchOptions & Record<string, unknown>);
}
