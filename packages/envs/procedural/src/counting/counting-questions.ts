import type { Rng } from '@saccade/core';
import type { ColourName } from '../common/palette';
import { SCENE_COLOURS, SHAPES, SIZES, type SceneObject, type Shape, type Size } from './counting-scene';

/** Which objects a question is about: those matching every given attribute. */
export interface ObjectFilter {
  colour?: ColourName;
  shape?: Shape;
  size?: Size;
}

/** The spatial relations counting questions ask about. */
export const RELATIONS = ['left of', 'right of', 'above', 'below'] as const;
/** One of {@link RELATIONS}. */
export type Relation = (typeof RELATIONS)[number];
/** The question kinds the counting generator asks. */
export const COUNTING_QUESTIONS = ['count', 'exists-relation', 'count-relation', 'extreme-attribute'] as const;
/** One of {@link COUNTING_QUESTIONS}. */
export type CountingQuestionKind = (typeof COUNTING_QUESTIONS)[number];

/** The question in structured form; `answerCountingQuery` evaluates it on any scene. */
export type CountingQuery =
  | { kind: 'count'; filter: ObjectFilter }
  | { kind: 'exists-relation'; filter: ObjectFilter; relation: Relation; anchor: Required<ObjectFilter> }
  | { kind: 'count-relation'; relation: Relation; anchor: Required<ObjectFilter> }
  | { kind: 'extreme-attribute'; filter: ObjectFilter; extreme: 'leftmost' | 'rightmost' | 'topmost' | 'bottommost'; attribute: 'colour' | 'shape' };

/** Objects closer than this along the relation's axis make "left of" a matter of taste; they are avoided. */
export const RELATION_MARGIN = 12;

export const matches = (object: SceneObject, filter: ObjectFilter): boolean =>
  (filter.colour === undefined || object.colour === filter.colour) && (filter.shape === undefined || object.shape === filter.shape) && (filter.size === undefined || object.size === filter.size);

/** Signed distance of `object` past `anchor` in the relation's direction (positive: the relation holds). */
function along(relation: Relation, object: SceneObject, anchor: SceneObject): number {
  switch (relation) {
    case 'left of':
      return anchor.x - object.x;
    case 'right of':
      return object.x - anchor.x;
    case 'above':
      return anchor.y - object.y;
    case 'below':
      return object.y - anchor.y;
  }
}

export function describe(filter: ObjectFilter, plural = false): string {
  const noun = filter.shape === undefined ? 'object' : filter.shape;
  return [filter.size, filter.colour, plural ? `${noun}s` : noun].filter((word) => word !== undefined).join(' ');
}

/** The answer, or undefined when the question would be ambiguous on this scene. */
export function answerCountingQuery(objects: readonly SceneObject[], query: CountingQuery): string | undefined {
  if (query.kind === 'count') return String(objects.filter((object) => matches(object, query.filter)).length);
  if (query.kind === 'extreme-attribute') {
    const candidates = objects.filter((object) => matches(object, query.filter));
    if (candidates.length === 0) return undefined;
    const key = { leftmost: (o: SceneObject) => o.x, rightmost: (o: SceneObject) => -o.x, topmost: (o: SceneObject) => o.y, bottommost: (o: SceneObject) => -o.y }[query.extreme];
    const sorted = [...candidates].sort((a, b) => key(a) - key(b));
    if (sorted.length > 1 && key(sorted[1]!) - key(sorted[0]!) < RELATION_MARGIN) return undefined;
    return sorted[0]![query.attribute];
  }
  const anchors = objects.filter((object) => matches(object, query.anchor));
  if (anchors.length !== 1) return undefined;
  const anchor = anchors[0]!;
  const others = objects.filter((object) => object !== anchor && (query.kind === 'count-relation' || matches(object, query.filter)));
  if (others.some((object) => Math.abs(along(query.relation, object, anchor)) < RELATION_MARGIN)) return undefined;
  const related = others.filter((object) => along(query.relation, object, anchor) > 0).length;
  return query.kind === 'count-relation' ? String(related) : related > 0 ? 'yes' : 'no';
}

export function countingQuestionText(query: CountingQuery): string {
  switch (query.kind) {
    case 'count':
      return `How many ${describe(query.filter, true)} are there?`;
    case 'exists-relation':
      return `Is there a ${describe(query.filter)} ${query.relation} the ${describe(query.anchor)}?`;
    case 'count-relation':
      return `How many objects are ${query.relation} the ${describe(query.anchor)}?`;
    case 'extreme-attribute':
      return `What ${query.attribute === 'colour' ? 'colour' : 'shape'} is the ${query.extreme} ${describe(query.filter)}?`;
  }
}

/** A filter on `attributes` attributes; its values come from `like` when given (so it matches something). */
function randomFilter(rng: Rng, attributes: number, like?: SceneObject): ObjectFilter {
  const keys = rng.shuffle(['colour', 'shape', 'size'] as const).slice(0, attributes);
  const filter: ObjectFilter = {};
  for (const key of keys) {
    if (key === 'colour') filter.colour = like?.colour ?? rng.pick(SCENE_COLOURS);
    if (key === 'shape') filter.shape = like?.shape ?? rng.pick(SHAPES);
    if (key === 'size') filter.size = like?.size ?? rng.pick(SIZES);
  }
  return filter;
}

/** Draws queries until one has an unambiguous answer on the scene (count questions always do). */
export function drawCountingQuery(rng: Rng, objects: readonly SceneObject[], kinds: readonly CountingQuestionKind[], difficulty: number): { query: CountingQuery; answer: string } {
  for (let attempt = 0; attempt < 200; attempt++) {
    const kind = rng.pick(kinds);
    const anchorObject = rng.pick(objects);
    const anchor = { colour: anchorObject.colour, shape: anchorObject.shape, size: anchorObject.size };
    const attributes = difficulty < 0.4 ? 1 : rng.int(1, 2);
    let query: CountingQuery;
    // Most count questions describe an object that is there; some ask about what may be absent (0).
    if (kind === 'count') query = { kind, filter: randomFilter(rng, attributes, rng.next() < 0.7 ? anchorObject : undefined) };
    else if (kind === 'exists-relation') query = { kind, filter: randomFilter(rng, attributes), relation: rng.pick(RELATIONS), anchor };
    else if (kind === 'count-relation') query = { kind, relation: rng.pick(RELATIONS), anchor };
    else {
      const attribute = rng.pick(['colour', 'shape'] as const);
      const filter = attribute === 'colour' ? { shape: anchorObject.shape } : { colour: anchorObject.colour };
      query = { kind, filter, extreme: rng.pick(['leftmost', 'rightmost', 'topmost', 'bottommost'] as const), attribute };
    }
    const answer = answerCountingQuery(objects, query);
    if (answer !== undefined) return { query, answer };
  }
  const filter = { colour: objects[0]!.colour };
  return { query: { kind: 'count', filter }, answer: String(objects.filter((object) => matches(object, filter)).length) };
}

export function countingKindsFor(difficulty: number): CountingQuestionKind[] {
  if (difficulty < 0.3) return ['count'];
  if (difficulty < 0.6) return ['count', 'extreme-attribute', 'exists-relation'];
  return [...COUNTING_QUESTIONS];
}
