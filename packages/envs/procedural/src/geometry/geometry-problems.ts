import type { Rng } from '@saccade/core';
import { add, polar, scale, sub, unit, type Point } from './geometry-figure';

/** The problem kinds the geometry generator draws. */
export const GEOMETRY_PROBLEMS = ['triangle-angle', 'isosceles-angle', 'parallel-lines', 'exterior-angle', 'inscribed-angle', 'hypotenuse', 'right-triangle-leg'] as const;
/** One of {@link GEOMETRY_PROBLEMS}. */
export type GeometryProblemKind = (typeof GEOMETRY_PROBLEMS)[number];

/** What is asked: the angle at `vertex` between rays to `from` and `to`, or the length from `from` to `to`. */
export type GeometryQuery = { kind: 'angle'; vertex: string; from: string; to: string } | { kind: 'length'; from: string; to: string };

export type Mark = { kind: 'angle'; vertex: string; from: string; to: string; text: string } | { kind: 'side'; from: string; to: string; away: string; text: string };
export type Decoration = { kind: 'right'; vertex: string; from: string; to: string } | { kind: 'tick'; from: string; to: string };

/** A problem before it is fitted to the canvas: points in abstract units (lengths in the problem's units). */
export interface GeometryProblem {
  kind: GeometryProblemKind;
  points: Record<string, Point>;
  segments: [string, string][];
  circles: { centre: string; radius: number }[];
  marks: Mark[];
  decorations: Decoration[];
  /** The facts in words, for the question at low difficulty (the figure always shows them). */
  facts: string[];
  /** Facts the figure cannot show (parallel lines), always in the question. */
  statements: string[];
  ask: string;
  query: GeometryQuery;
  answer: number;
}

/** Triangle ABC with the given angles (degrees) at A and B, AB of length `base`, C above AB. */
function triangle(angleA: number, angleB: number, base = 10): Record<'A' | 'B' | 'C', Point> {
  const angleC = 180 - angleA - angleB;
  const sideB = (base * Math.sin((angleB * Math.PI) / 180)) / Math.sin((angleC * Math.PI) / 180);
  return { A: { x: 0, y: 0 }, B: { x: base, y: 0 }, C: polar(angleA, sideB) };
}

const TRIPLES: readonly [number, number, number][] = [[3, 4, 5], [6, 8, 10], [5, 12, 13], [9, 12, 15], [8, 15, 17], [12, 16, 20], [7, 24, 25], [20, 21, 29]];

const angleMark = (vertex: string, from: string, to: string, degrees: number): Mark => ({ kind: 'angle', vertex, from, to, text: `${degrees}°` });
const unknownMark = (vertex: string, from: string, to: string): Mark => ({ kind: 'angle', vertex, from, to, text: '?' });

export function drawGeometryProblem(rng: Rng, kind: GeometryProblemKind): GeometryProblem {
  const base = { circles: [], decorations: [], statements: [] } as Pick<GeometryProblem, 'circles' | 'decorations' | 'statements'>;
  switch (kind) {
    case 'triangle-angle': {
      const a = rng.int(30, 100);
      const b = rng.int(25, 150 - a);
      return {
        ...base, kind, points: triangle(a, b), segments: [['A', 'B'], ['B', 'C'], ['C', 'A']],
        marks: [angleMark('A', 'B', 'C', a), angleMark('B', 'A', 'C', b), unknownMark('C', 'A', 'B')],
        facts: [`m∠CAB = ${a}°`, `m∠ABC = ${b}°`], ask: 'Find m∠ACB in degrees.',
        query: { kind: 'angle', vertex: 'C', from: 'A', to: 'B' }, answer: 180 - a - b,
      };
    }
    case 'isosceles-angle': {
      const apex = 2 * rng.int(15, 60);
      const baseAngle = (180 - apex) / 2;
      const points = triangle(baseAngle, baseAngle);
      return {
        ...base, kind, points, segments: [['A', 'B'], ['B', 'C'], ['C', 'A']],
        decorations: [{ kind: 'tick', from: 'C', to: 'A' }, { kind: 'tick', from: 'C', to: 'B' }],
        marks: [angleMark('C', 'A', 'B', apex), unknownMark('A', 'B', 'C')],
        facts: ['CA = CB', `m∠ACB = ${apex}°`], ask: 'Find m∠CAB in degrees.',
        query: { kind: 'angle', vertex: 'A', from: 'B', to: 'C' }, answer: baseAngle,
      };
    }
    case 'exterior-angle': {
      const a = rng.int(30, 80);
      const b = rng.int(30, 80);
      const points: Record<string, Point> = triangle(a, b);
      // D extends BC beyond C.
      points.D = add(points.C!, scale(unit(sub(points.C!, points.B!)), 5));
      return {
        ...base, kind, points, segments: [['A', 'B'], ['B', 'D'], ['C', 'A']],
        marks: [angleMark('A', 'B', 'C', a), angleMark('B', 'A', 'C', b), unknownMark('C', 'A', 'D')],
        facts: [`m∠CAB = ${a}°`, `m∠ABC = ${b}°`], statements: ['B, C and D lie on one line.'], ask: 'Find m∠ACD in degrees.',
        query: { kind: 'angle', vertex: 'C', from: 'A', to: 'D' }, answer: a + b,
      };
    }
    case 'parallel-lines': {
      const theta = rng.pick([rng.int(35, 80), rng.int(100, 145)]);
      const gap = 6;
      const G = { x: 0, y: 0 };
      const H = add(G, scale(polar(theta + 180), gap / Math.sin((theta * Math.PI) / 180)));
      const points = {
        A: { x: G.x - 8, y: 0 }, B: { x: G.x + 8, y: 0 }, C: { x: H.x - 8, y: H.y }, D: { x: H.x + 8, y: H.y },
        E: add(G, polar(theta, 3.5)), F: add(H, polar(theta + 180, 3.5)), G, H,
      };
      // Each asked angle is θ or 180 − θ (corresponding, vertical, alternate, co-interior).
      const asks: [string, string, string, number][] = [
        ['H', 'G', 'D', theta], ['G', 'A', 'H', theta], ['H', 'G', 'C', 180 - theta], ['G', 'B', 'H', 180 - theta], ['H', 'C', 'F', theta],
      ];
      const [vertex, from, to, answer] = rng.pick(asks);
      return {
        ...base, kind, points, segments: [['A', 'B'], ['C', 'D'], ['E', 'F']],
        marks: [angleMark('G', 'E', 'B', theta), unknownMark(vertex, from, to)],
        facts: [`m∠EGB = ${theta}°`], statements: ['Line AB is parallel to line CD.'], ask: `Find m∠${from}${vertex}${to} in degrees.`,
        query: { kind: 'angle', vertex, from, to }, answer,
      };
    }
    case 'inscribed-angle': {
      const half = rng.int(20, 75);
      const start = rng.int(0, 359);
      const points = { O: { x: 0, y: 0 }, A: polar(start, 10), B: polar(start + 2 * half, 10), C: polar(start + half + 180 + rng.int(-25, 25), 10) };
      const askCentral = rng.next() < 0.5;
      return {
        ...base, kind, points, segments: [['O', 'A'], ['O', 'B'], ['C', 'A'], ['C', 'B']], circles: [{ centre: 'O', radius: 10 }],
        marks: askCentral ? [angleMark('C', 'A', 'B', half), unknownMark('O', 'A', 'B')] : [angleMark('O', 'A', 'B', 2 * half), unknownMark('C', 'A', 'B')],
        facts: askCentral ? [`m∠ACB = ${half}°`] : [`m∠AOB = ${2 * half}°`], statements: ['O is the centre of the circle.'],
        ask: askCentral ? 'Find m∠AOB in degrees.' : 'Find m∠ACB in degrees.',
        query: askCentral ? { kind: 'angle', vertex: 'O', from: 'A', to: 'B' } : { kind: 'angle', vertex: 'C', from: 'A', to: 'B' },
        answer: askCentral ? 2 * half : half,
      };
    }
    case 'hypotenuse':
    case 'right-triangle-leg': {
      // Legs ≥ 5 keep the 2-decimal hypotenuse within Geometry3K's 0.1%; the leg problem uses a
      // Pythagorean triple, so the hypotenuse it shows is exact.
      const triple = rng.pick(TRIPLES);
      const [legA, legB] = (kind === 'hypotenuse' ? [rng.int(5, 15), rng.int(5, 15)] : rng.shuffle([triple[0], triple[1]])) as [number, number];
      const hypotenuse = Math.hypot(legA, legB);
      const points = { C: { x: 0, y: 0 }, B: { x: legA, y: 0 }, A: { x: 0, y: -legB } };
      const shown = (value: number) => String(Math.round(value * 100) / 100);
      const common = { ...base, kind, points, segments: [['A', 'B'], ['B', 'C'], ['C', 'A']] as [string, string][], decorations: [{ kind: 'right', vertex: 'C', from: 'A', to: 'B' } as Decoration] };
      if (kind === 'hypotenuse') {
        return {
          ...common,
          marks: [{ kind: 'side', from: 'B', to: 'C', away: 'A', text: String(legA) }, { kind: 'side', from: 'C', to: 'A', away: 'B', text: String(legB) }, { kind: 'side', from: 'A', to: 'B', away: 'C', text: '?' }],
          facts: [`BC = ${legA}`, `AC = ${legB}`, 'm∠ACB = 90°'], ask: 'Find AB. Round to two decimals.',
          query: { kind: 'length', from: 'A', to: 'B' }, answer: Math.round(hypotenuse * 100) / 100,
        };
      }
      return {
        ...common,
        marks: [{ kind: 'side', from: 'B', to: 'C', away: 'A', text: String(legA) }, { kind: 'side', from: 'A', to: 'B', away: 'C', text: shown(hypotenuse) }, { kind: 'side', from: 'C', to: 'A', away: 'B', text: '?' }],
        facts: [`BC = ${legA}`, `AB = ${shown(hypotenuse)}`, 'm∠ACB = 90°'], ask: 'Find AC. Round to two decimals.',
        query: { kind: 'length', from: 'A', to: 'C' }, answer: legB,
      };
    }
  }
}

/** Problem kinds unlock with difficulty: one-step angle facts, then circles and exterior angles, then Pythagoras. */
export function geometryKindsFor(difficulty: number): GeometryProblemKind[] {
  if (difficulty < 0.3) return ['triangle-angle', 'isosceles-angle', 'parallel-lines'];
  if (difficulty < 0.6) return ['triangle-angle', 'isosceles-angle', 'parallel-lines', 'exterior-angle', 'inscribed-angle'];
  return [...GEOMETRY_PROBLEMS];
}
