import { InvalidArgumentError } from '@saccade/spec';
import { lerp } from '../common/difficulty';
import { checkKnownOptions, multipleChoice, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { svgDocument } from '../common/svg';
import {
  angleMarkPosition,
  equalTick,
  figureSvg,
  FIGURE_HEIGHT,
  FIGURE_WIDTH,
  fitPoints,
  rightAngleMark,
  sideMarkPosition,
  type Figure,
  type Point,
} from './geometry-figure';
import { drawGeometryProblem, GEOMETRY_PROBLEMS, geometryKindsFor, type GeometryProblemKind } from './geometry-problems';

/** Options of the geometry source: which problems, and how answers are asked. */
export interface GeometryOptions extends ProceduralSourceOptions {
  /** Problem kinds to draw from (default: those the difficulty unlocks). */
  problems?: GeometryProblemKind[];
  /** 'free' answers, 'multiple-choice' (A–D), or 'mixed' (default: more choices when easy). */
  answerStyle?: 'free' | 'multiple-choice' | 'mixed';
}

interface GeometrySettings {
  problems: readonly GeometryProblemKind[] | undefined;
  answerStyle: 'free' | 'multiple-choice' | 'mixed';
}

const format = (value: number) => String(Math.round(value * 100) / 100);

/** Three wrong options that a typical slip gives (the supplement, the complement, double, half, ±10). */
function distractors(answer: number, isAngle: boolean): string[] {
  const candidates = isAngle ? [180 - answer, 90 - answer, answer * 2, answer / 2, answer + 10, answer - 10, answer + 20, 360 - answer] : [answer * 2, answer / 2, answer + 2, answer - 2, answer * 1.5, answer + 5];
  const wrong: string[] = [];
  for (const value of candidates) {
    const text = format(value);
    if (value > 0 && (!isAngle || value < 360) && Math.abs(value - answer) > 1 && !wrong.includes(text)) wrong.push(text);
    if (wrong.length === 3) break;
  }
  return wrong;
}

/** Geometry tasks: a drawn figure and an angle or length to find, free answer or multiple choice. */
export const geometryGenerator: GeneratorDefinition<GeometrySettings> = {
  name: 'geometry',
  dataset: 'Procedural-Geometry',
  taskFamily: 'geometry',
  checker: 'Geometry3K',
  options: ['problems', 'answerStyle'],
  settings(options) {
    checkKnownOptions(options, this.options, 'geometry');
    const { problems, answerStyle = 'mixed' } = options as GeometryOptions;
    if (problems !== undefined && (!Array.isArray(problems) || problems.length === 0 || !problems.every((kind) => GEOMETRY_PROBLEMS.includes(kind)))) {
      throw new InvalidArgumentError({ argument: 'problems', expected: `a non-empty array of ${GEOMETRY_PROBLEMS.join(' | ')}`, value: problems });
    }
    if (!['free', 'multiple-choice', 'mixed'].includes(answerStyle)) throw new InvalidArgumentError({ argument: 'answerStyle', expected: "'free' | 'multiple-choice' | 'mixed'", value: answerStyle });
    return { problems, answerStyle };
  },
  generate(rng, settings, difficulty) {
    const problem = drawGeometryProblem(rng.fork('problem'), rng.pick(settings.problems ?? geometryKindsFor(difficulty)));
    // Circles reach beyond their points: fit their extreme points too.
    const extents: Record<string, Point> = { ...problem.points };
    for (const [index, circle] of problem.circles.entries()) {
      const c = problem.points[circle.centre]!;
      extents[`circle${index}-min`] = { x: c.x - circle.radius, y: c.y - circle.radius };
      extents[`circle${index}-max`] = { x: c.x + circle.radius, y: c.y + circle.radius };
    }
    const fitted = fitPoints(extents);
    const points = Object.fromEntries(Object.keys(problem.points).map((name) => [name, fitted.points[name]!]));
    const figure: Figure = {
      points,
      segments: problem.segments,
      circles: problem.circles.map((circle) => ({ centre: circle.centre, radius: circle.radius * fitted.factor })),
      marks: problem.marks.map((mark) => {
        const at = mark.kind === 'angle' ? angleMarkPosition(points[mark.vertex]!, points[mark.from]!, points[mark.to]!) : sideMarkPosition(points[mark.from]!, points[mark.to]!, points[mark.away]!);
        return { ...at, text: mark.text };
      }),
      decorations: problem.decorations.map((decoration) =>
        decoration.kind === 'right' ? rightAngleMark(points[decoration.vertex]!, points[decoration.from]!, points[decoration.to]!) : equalTick(points[decoration.from]!, points[decoration.to]!),
      ),
    };
    // Easy: the given values are also in words; hard: only on the figure.
    const inWords = rng.next() >= difficulty;
    const question = [...problem.statements, ...(inWords ? [`Given ${problem.facts.join(', ')}.`] : []), problem.ask].join(' ');
    const style = settings.answerStyle === 'mixed' ? (rng.next() < lerp(difficulty, 0.7, 0.2) ? 'multiple-choice' : 'free') : settings.answerStyle;
    const answer = format(problem.answer);
    const metadata = { problem: problem.kind, points, scale: fitted.factor, query: problem.query, value: problem.answer };
    const svg = svgDocument(FIGURE_WIDTH, FIGURE_HEIGHT, figureSvg(figure));
    if (style === 'multiple-choice') {
      const { choices, answerIndex } = multipleChoice(rng.fork('choices'), answer, distractors(problem.answer, problem.query.kind === 'angle'));
      return { svg, width: FIGURE_WIDTH, height: FIGURE_HEIGHT, question, answer, answerType: 'multiple-choice', choices, metadata: { ...metadata, answer_index: answerIndex } };
    }
    return { svg, width: FIGURE_WIDTH, height: FIGURE_HEIGHT, question, answer, answerType: 'number', metadata };
  },
};

/** Triangles, parallel lines and circles drawn to scale, with a missing angle or length (Geometry3K's check). */
export function createGeometrySource(options: GeometryOptions = {}): ProceduralSource<GeometrySettings> {
  return new ProceduralSource(geometryGenerator, options as GeometryOptions & Record<string, unknown>);
}
