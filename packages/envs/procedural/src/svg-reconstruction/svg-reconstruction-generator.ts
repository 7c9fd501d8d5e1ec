import type { Rng } from '@saccade/core';
import { levelInt } from '../common/difficulty';
import { COLOUR_NAMES, COLOURS, type ColourName } from '../common/palette';
import { checkKnownOptions, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';

/** VAGEN's SVG env renders targets at 256 px. */
export const SVG_SIZE = 256;
/** The shape kinds a target SVG is drawn with. */
export const SVG_SHAPES = ['rect', 'circle', 'ellipse', 'triangle'] as const;
/** One of {@link SVG_SHAPES}. */
export type SvgShapeKind = (typeof SVG_SHAPES)[number];

/** One shape of a target, with its exact area in pixels (tests measure it back from the render). */
export interface SvgShape {
  kind: SvgShapeKind;
  colour: ColourName;
  markup: string;
  area: number;
}

function drawShape(rng: Rng, kind: SvgShapeKind, colour: ColourName): SvgShape {
  const fill = COLOURS[colour];
  switch (kind) {
    case 'rect': {
      const w = rng.int(30, 140);
      const h = rng.int(30, 140);
      return { kind, colour, area: w * h, markup: `<rect x="${rng.int(8, SVG_SIZE - 8 - w)}" y="${rng.int(8, SVG_SIZE - 8 - h)}" width="${w}" height="${h}" fill="${fill}"/>` };
    }
    case 'circle': {
      const r = rng.int(16, 70);
      return { kind, colour, area: Math.PI * r * r, markup: `<circle cx="${rng.int(r + 8, SVG_SIZE - r - 8)}" cy="${rng.int(r + 8, SVG_SIZE - r - 8)}" r="${r}" fill="${fill}"/>` };
    }
    case 'ellipse': {
      const rx = rng.int(20, 80);
      const ry = rng.int(14, 60);
      return { kind, colour, area: Math.PI * rx * ry, markup: `<ellipse cx="${rng.int(rx + 8, SVG_SIZE - rx - 8)}" cy="${rng.int(ry + 8, SVG_SIZE - ry - 8)}" rx="${rx}" ry="${ry}" fill="${fill}"/>` };
    }
    case 'triangle': {
      const points = Array.from({ length: 3 }, () => [rng.int(10, SVG_SIZE - 10), rng.int(10, SVG_SIZE - 10)] as const);
      const [[ax, ay], [bx, by], [cx, cy]] = points as unknown as [[number, number], [number, number], [number, number]];
      const area = Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
      return { kind, colour, area, markup: `<polygon points="${points.map(([x, y]) => `${x},${y}`).join(' ')}" fill="${fill}"/>` };
    }
  }
}

/** The target as SVG code: a white background and the shapes in order (later ones on top). */
export function targetSvgCode(shapes: readonly SvgShape[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_SIZE}" height="${SVG_SIZE}" viewBox="0 0 ${SVG_SIZE} ${SVG_SIZE}"><rect width="${SVG_SIZE}" height="${SVG_SIZE}" fill="#ffffff"/>${shapes.map((shape) => shape.markup).join('')}</svg>`;
}

/** SVG-reconstruction tasks: a rendered image of a few shapes; the answer is SVG code that draws it again. */
export const svgReconstructionGenerator: GeneratorDefinition<Record<string, never>> = {
  name: 'svg-reconstruction',
  dataset: 'Procedural-SvgReconstruction',
  taskFamily: 'svg',
  checker: 'SSIM',
  options: [],
  settings(options) {
    checkKnownOptions(options, this.options, 'svg-reconstruction');
    return {};
  },
  generate(rng, _settings, difficulty) {
    // Easy targets are one or two large shapes; hard ones up to five, any kind, overlapping. A
    // triangle with a tiny area says little, so those are redrawn.
    const count = levelInt(difficulty, 1, 5);
    const colours = rng.shuffle(COLOUR_NAMES);
    const shapes: SvgShape[] = [];
    while (shapes.length < count) {
      const shape = drawShape(rng, rng.pick(difficulty < 0.3 ? (['rect', 'circle'] as const) : SVG_SHAPES), colours[shapes.length]!);
      if (shape.area >= 600) shapes.push(shape);
    }
    const code = targetSvgCode(shapes);
    return {
      svg: code,
      width: SVG_SIZE,
      height: SVG_SIZE,
      question: `Write SVG code that reproduces this ${SVG_SIZE}×${SVG_SIZE} image as closely as you can (it is drawn with simple shapes on a white background).`,
      answer: code,
      answerType: 'text',
      metadata: { shapes: shapes.map(({ kind, colour, area }) => ({ kind, colour, area })) },
    };
  },
};

/** Targets for SVG reconstruction: simple shapes on white; the reference answer is the SVG that drew them. */
export function createSvgReconstructionSource(options: ProceduralSourceOptions = {}): ProceduralSource<Record<string, never>> {
  return new ProceduralSource(svgReconstructionGenerator, options as ProceduralSourceOptions & Record<string, unknown>);
}
