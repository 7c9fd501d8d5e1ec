import type { Rng } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { lerp, levelInt } from '../common/difficulty';
import { COLOUR_NAMES, COLOURS, type ColourName } from '../common/palette';
import { checkKnownOptions, multipleChoice, ProceduralSource, type GeneratedSample, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { num, svgDocument } from '../common/svg';

/** The shapes a visual-search target can have (distractors are never these). */
export const TARGET_SHAPES = ['star', 'cross', 'ring'] as const;
/** One of {@link TARGET_SHAPES}. */
export type TargetShape = (typeof TARGET_SHAPES)[number];
/** The shapes distractors have besides look-alikes (never a target's). */
export const DISTRACTOR_SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;
type DistractorShape = (typeof DISTRACTOR_SHAPES)[number];

/**
 * What is asked: `colour` (V*'s attribute question: the target is named by its shape, which only
 * shows up close; its colour is asked), `shape` (the target is named by its colour, which can be
 * found in the downscaled image; its shape, which needs a closer look, is asked) or `relation`
 * (V*'s relative-position question: two objects, each named by colour and shape, and whether the
 * first is left or right of the second, or above or below it).
 */
export type VisualSearchQuestion = 'colour' | 'shape' | 'relation';
/** Every {@link VisualSearchQuestion}, in the order the docs list them. */
export const VISUAL_SEARCH_QUESTIONS: readonly VisualSearchQuestion[] = ['colour', 'shape', 'relation'];

/**
 * Distractors that share the named objects' features, so one feature does not find them:
 * `colour` look-alikes have a named object's colour and a distractor's shape (circle, square,
 * triangle, diamond); `shape` look-alikes are stars, crosses and rings in colours no named object
 * has (asking the colour, never the target's own shape: its shape names it); `both` draws both
 * kinds, so only the conjunction of colour and shape picks the target out.
 */
export type VisualSearchLookalikes = 'none' | 'colour' | 'shape' | 'both';
/** Every {@link VisualSearchLookalikes} kind, none first. */
export const VISUAL_SEARCH_LOOKALIKES: readonly VisualSearchLookalikes[] = ['none', 'colour', 'shape', 'both'];

/** Which relation a `relation` question asks: left/right (V*'s), above/below, or either, drawn per task. */
export type VisualSearchRelationAxis = 'horizontal' | 'vertical' | 'either';
/** Every {@link VisualSearchRelationAxis}. */
export const VISUAL_SEARCH_RELATION_AXES: readonly VisualSearchRelationAxis[] = ['horizontal', 'vertical', 'either'];

/** The smallest and largest `targetRadius`, in pixels. */
export const TARGET_RADIUS_RANGE = { min: 4, max: 64 } as const;

/**
 * The least distance between the two objects' centres along the asked axis, in pixels: one 16-px
 * patch of a 2048-px image seen at 128 px, so the answer never rests on a pixel or two.
 */
export const RELATION_MIN_SEPARATION = 256;

/**
 * The least distance (Chebyshev, px) between a searching teacher's decoy and the target: a 364-px
 * crop around a decoy's cell of the 8 × 8 frame reaches at most 310 px from it, and the target's box 30 px.
 */
const DECOY_DISTANCE = 512;

/** Options of the visual-search source: the image's size, what is asked, and the target's colour. */
export interface VisualSearchOptions extends ProceduralSourceOptions {
  /**
   * A named difficulty level ({@link VISUAL_SEARCH_LEVELS}): sets the options (and the difficulty)
   * its entry lists; options given beside it override the level's.
   */
  level?: VisualSearchLevel;
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
   * offset in the crop (docs/training.md: reading measured alone). With `question: 'relation'`
   * it places the first object only.
   */
  targetGrid?: number;
  /** Distractors that share the named objects' colour or shape (default `none`). */
  lookalikes?: VisualSearchLookalikes;
  /**
   * The target's radius in pixels, 4 to 64 (default: 30 at difficulty 0 down to 10 at 1); with
   * `question: 'relation'`, both objects'. Distractors are sized from it as from the default.
   */
  targetRadius?: number;
  /** With `question: 'relation'`, the relation asked (default `horizontal`, as V*). */
  relationAxis?: VisualSearchRelationAxis;
  /**
   * A teacher that searches: with colour look-alikes, the looking oracle first crops up to this many
   * of them (0 to 3; per task a number from 0 to it, drawn, and which ones), then the target, so its
   * demonstrations show a look that missed being followed by another (default 0: straight at the
   * target). The task itself is unchanged: only `metadata.targetBoxes`, the boxes the oracle crops.
   */
  oracleDecoys?: number;
}

/**
 * The named difficulty levels, from the task the visual-search recipe was fitted to towards V*'s.
 * Each sets the options listed (difficulty 0: 40 distractors); docs/procedural.md says what each
 * demands of an agent.
 */
export const VISUAL_SEARCH_LEVELS: Readonly<Record<VisualSearchLevel, Readonly<Omit<VisualSearchOptions, 'level' | 'split'>>>> = {
  /** The recipe's task: the one red shape, centred in an inner cell of an 8 × 8 grid. */
  grid: { question: 'shape', targetColour: 'red', targetGrid: 8, difficulty: 0 },
  /** The same without the grid: the red shape anywhere in the image. */
  anywhere: { question: 'shape', targetColour: 'red', difficulty: 0 },
  /** Anywhere, among red circles, squares, triangles and diamonds of the target's size. */
  lookalikes: { question: 'shape', targetColour: 'red', lookalikes: 'colour', difficulty: 0 },
  /** Look-alikes, with a 12-px target: a first crop finds it, only a second, closer one reads it. */
  'two-look': { question: 'shape', targetColour: 'red', lookalikes: 'colour', targetRadius: 6, difficulty: 0 },
  /** V*'s relative position: two objects named by colour and shape, among look-alikes of their colours. */
  relation: { question: 'relation', lookalikes: 'colour', difficulty: 0 },
};
/** A named difficulty level of the visual-search source: a key of {@link VISUAL_SEARCH_LEVELS}. */
export type VisualSearchLevel = 'grid' | 'anywhere' | 'lookalikes' | 'two-look' | 'relation';
/** The level names, easiest first. */
export const VISUAL_SEARCH_LEVEL_NAMES = Object.keys(VISUAL_SEARCH_LEVELS) as VisualSearchLevel[];

interface VisualSearchSettings {
  size: number;
  question: VisualSearchQuestion;
  targetColour: ColourName | undefined;
  targetGrid: number | undefined;
  lookalikes: VisualSearchLookalikes;
  targetRadius: number | undefined;
  relationAxis: VisualSearchRelationAxis;
  oracleDecoys: number;
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

/** An object the question names: its features, centre, radius and exact box. */
interface NamedObject {
  shape: TargetShape;
  colour: ColourName;
  x: number;
  y: number;
  radius: number;
  box: Box;
}

const roundBox = (box: Box) => box.map((value) => Math.round(value * 100) / 100) as Box;
const nameOf = (object: NamedObject) => `${object.colour} ${object.shape}`;
const oneOf = (names: readonly string[]) => `one of ${names.join(', ')}`;

/**
 * The distractors of a scene with look-alikes or two named objects: no object overlaps another
 * (an occluded shape could look like a named one), none comes within 8 px of a named object, and
 * every fourth object is a look-alike of each kind asked for, so there is at least one of each.
 */
function placeDistractors(rng: Rng, { size, question, lookalikes }: VisualSearchSettings, difficulty: number, named: readonly NamedObject[], radius: number) {
  const count = levelInt(difficulty, 40, 400);
  const kinds: ('colour' | 'shape')[] = lookalikes === 'both' ? ['colour', 'shape'] : lookalikes === 'none' ? [] : [lookalikes];
  const namedColours = new Set(named.map((object) => object.colour));
  const otherColours = COLOUR_NAMES.filter((name) => !namedColours.has(name));
  // Asking the colour, any colour may be the target's; otherwise the named colours belong to the named objects and their look-alikes.
  const plainColours = question === 'colour' ? COLOUR_NAMES : otherColours;
  const lookalikeShapes = question === 'colour' ? TARGET_SHAPES.filter((shape) => shape !== named[0]!.shape) : TARGET_SHAPES;
  const parts: string[] = [];
  const boxes: Box[] = [];
  const counts = { colour: 0, shape: 0 };
  const colourBoxes: Box[] = [];
  for (let attempt = 0; boxes.length < count && attempt < count * 20; attempt++) {
    const kind = kinds[boxes.length % 4];
    // Look-alikes are the target's size, so size does not single it out either.
    const r = kind === undefined ? Math.max(6, Math.round(radius * (0.7 + rng.next() * lerp(difficulty, 2.5, 0.6)))) : Math.max(TARGET_RADIUS_RANGE.min, Math.round(radius * (0.8 + 0.4 * rng.next())));
    const x = rng.int(r, size - r);
    const y = rng.int(r, size - r);
    if (named.some((object) => overlaps(object.box, x, y, r, 8)) || boxes.some((box) => overlaps(box, x, y, r, 4))) continue;
    if (kind === 'shape') {
      const drawn = targetSvg(rng.pick(lookalikeShapes), x, y, r, COLOURS[rng.pick(otherColours)]);
      parts.push(drawn.svg);
    } else {
      parts.push(distractorSvg(rng.pick(DISTRACTOR_SHAPES), x, y, r, COLOURS[rng.pick(kind === 'colour' ? [...namedColours] : plainColours)]));
    }
    if (kind !== undefined) counts[kind]++;
    boxes.push([x - r, y - r, x + r, y + r]);
    if (kind === 'colour') colourBoxes.push([x - r, y - r, x + r, y + r]);
  }
  return { parts, placed: boxes.length, counts, colourBoxes };
}

/** The second object of a relation question: another shape in another colour, far enough along the axis. */
function placeReference(rng: Rng, size: number, target: NamedObject, axis: 'horizontal' | 'vertical'): NamedObject {
  const shape = rng.pick(TARGET_SHAPES.filter((name) => name !== target.shape));
  const colour = rng.pick(COLOUR_NAMES.filter((name) => name !== target.colour));
  // A uniform point is far enough along the axis with probability above 0.7: a few tries at most.
  for (let attempt = 0; attempt < 1000; attempt++) {
    const x = rng.int(100, size - 100);
    const y = rng.int(100, size - 100);
    const separation = axis === 'horizontal' ? Math.abs(x - target.x) : Math.abs(y - target.y);
    if (separation < RELATION_MIN_SEPARATION || overlaps(target.box, x, y, target.radius, 16)) continue;
    return { shape, colour, x, y, radius: target.radius, box: targetSvg(shape, x, y, target.radius, COLOURS[colour]).box };
  }
  throw new InvalidStateError({ operation: 'placeReference', expected: `a point ${RELATION_MIN_SEPARATION} px from the target along the ${axis} axis`, actual: 'none in 1000 draws' });
}

/** Visual-search tasks: one small target among distractors in a large image, with its box in `metadata.targetBox`. */
export const visualSearchGenerator: GeneratorDefinition<VisualSearchSettings> = {
  name: 'visual-search',
  dataset: 'Procedural-VisualSearch',
  taskFamily: 'visual-search',
  checker: 'V*Bench',
  options: ['size', 'question', 'targetColour', 'targetGrid', 'level', 'lookalikes', 'targetRadius', 'relationAxis', 'oracleDecoys'],
  expandOptions(options) {
    const level = options['level'];
    if (level === undefined) return options;
    if (typeof level !== 'string' || !Object.hasOwn(VISUAL_SEARCH_LEVELS, level)) {
      throw new InvalidArgumentError({ argument: 'level', expected: oneOf(VISUAL_SEARCH_LEVEL_NAMES), value: level });
    }
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return { ...VISUAL_SEARCH_LEVELS[level as VisualSearchLevel], ...given };
  },
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
    const lookalikes = (options as VisualSearchOptions).lookalikes ?? 'none';
    if (!VISUAL_SEARCH_LOOKALIKES.includes(lookalikes)) throw new InvalidArgumentError({ argument: 'lookalikes', expected: oneOf(VISUAL_SEARCH_LOOKALIKES), value: lookalikes });
    const targetRadius = (options as VisualSearchOptions).targetRadius;
    if (targetRadius !== undefined && (!Number.isInteger(targetRadius) || targetRadius < TARGET_RADIUS_RANGE.min || targetRadius > TARGET_RADIUS_RANGE.max)) {
      throw new InvalidArgumentError({ argument: 'targetRadius', expected: `an integer from ${TARGET_RADIUS_RANGE.min} to ${TARGET_RADIUS_RANGE.max} (pixels)`, value: targetRadius });
    }
    const axis = (options as VisualSearchOptions).relationAxis;
    if (axis !== undefined && (question !== 'relation' || !VISUAL_SEARCH_RELATION_AXES.includes(axis))) {
      throw new InvalidArgumentError({ argument: 'relationAxis', expected: `with question 'relation', ${oneOf(VISUAL_SEARCH_RELATION_AXES)}`, value: axis });
    }
    const oracleDecoys = (options as VisualSearchOptions).oracleDecoys ?? 0;
    if (!Number.isInteger(oracleDecoys) || oracleDecoys < 0 || oracleDecoys > 3 || (oracleDecoys > 0 && (question === 'relation' || (lookalikes !== 'colour' && lookalikes !== 'both')))) {
      throw new InvalidArgumentError({ argument: 'oracleDecoys', expected: "an integer from 0 to 3, above 0 only with lookalikes 'colour' or 'both' and a colour or shape question", value: oracleDecoys });
    }
    return { size, question, targetColour, targetGrid, lookalikes, targetRadius, relationAxis: axis ?? 'horizontal', oracleDecoys };
  },
  generate(rng: Rng, settings, difficulty) {
    const { size, question, targetColour, targetGrid, lookalikes } = settings;
    // Harder: a smaller target among more, similar-sized distractors.
    const radius = settings.targetRadius ?? Math.round(lerp(difficulty, 30, 10));
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
    const metadata: Record<string, unknown> = { target: { shape, colour: colour as ColourName, x, y, radius } };
    const document = (body: string[]) => svgDocument(size, size, body.join(''), '#f8f8f6');
    if (question === 'relation' || lookalikes !== 'none') {
      const first: NamedObject = { shape, colour, x, y, radius, box: target.box };
      const axis = settings.relationAxis === 'either' ? rng.pick(['horizontal', 'vertical'] as const) : settings.relationAxis;
      const named = question === 'relation' ? [first, placeReference(rng, size, first, axis)] : [first];
      const scene = placeDistractors(rng, settings, difficulty, named, radius);
      const targetBox = roundBox(target.box);
      Object.assign(metadata, { targetBox, distractors: scene.placed });
      if (lookalikes !== 'none') metadata['lookalikes'] = scene.counts;
      const body = [...parts, ...scene.parts, target.svg];
      if (question === 'relation') {
        const reference = named[1]!;
        body.push(targetSvg(reference.shape, reference.x, reference.y, reference.radius, COLOURS[reference.colour]).svg);
        const [words, answer] = axis === 'horizontal' ? [['left', 'right'], x < reference.x ? 'left' : 'right'] : [['above', 'below'], y < reference.y ? 'above' : 'below'];
        const { choices, answerIndex } = multipleChoice(rng.fork('choices'), answer, words.filter((word) => word !== answer));
        const { box, ...referenceFeatures } = reference;
        return {
          svg: document(body),
          width: size,
          height: size,
          question: axis === 'horizontal' ? `Is the ${nameOf(first)} on the left or right side of the ${nameOf(reference)}?` : `Is the ${nameOf(first)} above or below the ${nameOf(reference)}?`,
          answer,
          answerType: 'multiple-choice',
          choices,
          metadata: { answer_index: answerIndex, ...metadata, reference: referenceFeatures, targetBoxes: [targetBox, roundBox(box)], relationAxis: axis },
        };
      }
      // A searching teacher's path: some of the look-alikes first (drawn apart from the scene's draws),
      // then the target. Only look-alikes far from the target: a crop on one must not show the target.
      const far = settings.oracleDecoys > 0 ? scene.colourBoxes.filter((box) => Math.max(Math.abs((box[0] + box[2]) / 2 - x), Math.abs((box[1] + box[3]) / 2 - y)) >= DECOY_DISTANCE) : [];
      if (far.length > 0) {
        const draws = rng.fork('oracle-decoys');
        const decoys = draws.shuffle(far).slice(0, draws.int(0, settings.oracleDecoys));
        if (decoys.length > 0) metadata['targetBoxes'] = [...decoys.map(roundBox), targetBox];
      }
      // With colour look-alikes the colour narrows the search to a few objects; only their shapes tell the target.
      const naming = lookalikes === 'colour' || lookalikes === 'both' ? `Several shapes in this image are ${colour}; exactly one of them is a star, a cross or a ring, and it is small.` : undefined;
      return attributeTask(rng, { question, shape, colour, naming, svg: document(body), size, metadata });
    }
    // Without look-alikes, the scene as it was drawn before they existed: the same seed, the same bytes.
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
    Object.assign(metadata, { targetBox: roundBox(target.box), distractors: placed });
    return attributeTask(rng, { question, shape, colour, naming: undefined, svg: document(parts), size, metadata });
  },
};

/** What {@link attributeTask} asks about: the target's features and the drawn scene. */
interface AttributeQuestion {
  question: 'colour' | 'shape';
  shape: TargetShape;
  colour: ColourName;
  /** How a shape question names the target (default: the one shape of its colour). */
  naming: string | undefined;
  svg: string;
  size: number;
  metadata: Record<string, unknown>;
}

/** The task asking the target's shape (named by its colour) or its colour (named by its shape, four choices). */
function attributeTask(rng: Rng, { question, shape, colour, naming, svg, size, metadata }: AttributeQuestion): GeneratedSample {
  if (question === 'shape') {
    const named = naming ?? `There is exactly one ${colour} shape in this image; it is small.`;
    return { svg, width: size, height: size, question: `${named} Is it a star, a cross or a ring?`, answer: shape, answerType: 'text', metadata };
  }
  const { choices, answerIndex } = multipleChoice(rng.fork('choices'), colour, rng.shuffle(COLOUR_NAMES.filter((name) => name !== colour)).slice(0, 3));
  return {
    svg,
    width: size,
    height: size,
    question: `There is exactly one ${shape} in this image; it is small. What is the colour of the ${shape}?`,
    answer: colour,
    answerType: 'multiple-choice',
    choices,
    metadata: { answer_index: answerIndex, ...metadata },
  };
}

/** A large image (≥ 2048 px) with one small target among distractors; a colour question needs zooming. */
export function createVisualSearchSource(options: VisualSearchOptions = {}): ProceduralSource<VisualSearchSettings> {
  return new ProceduralSource(visualSearchGenerator, options as VisualSearchOptions & Record<string, unknown>);
}
