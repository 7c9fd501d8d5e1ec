import { createHash } from 'node:crypto';
import { defineTool, makeEnv, oracleAnswer, targetBoxOf, ToolUseWrapper } from '@saccade/core';
import { clipBox, crop } from '@saccade/image';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { InvalidArgumentError, type ImageData, type StandardSchemaV1 } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { components, pixelsOf } from '../../test/pixels';
import { sceneObjects, type SceneObject } from '../../test/scene-objects';
import { COLOURS, type ColourName } from '../common/palette';
import type { GeneratedSample } from '../common/procedural-source';
import { registerProceduralEnvs, VISUAL_SEARCH_ID } from '../register-procedural-envs';
import {
  createVisualSearchSource,
  RELATION_MIN_SEPARATION,
  TARGET_SHAPES,
  VISUAL_SEARCH_LEVEL_NAMES,
  VISUAL_SEARCH_LEVELS,
  VISUAL_SEARCH_LOOKALIKES,
  type Box,
  type VisualSearchLevel,
  type VisualSearchLookalikes,
  type VisualSearchOptions,
  type VisualSearchRelationAxis,
} from './visual-search-generator';

const digest = (svg: string) => createHash('sha256').update(svg).digest('hex').slice(0, 16);
const catchError = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('visual search: the options that existed before levels draw the same tasks', () => {
  // Recorded from the generator before lookalikes, relation questions, targetRadius and levels existed.
  const pinned: [VisualSearchOptions, number, string, Record<string, unknown>][] = [
    [{}, 0, 'e7cb8853f13e7d0f', { question: 'There is exactly one cross in this image; it is small. What is the colour of the cross?', answer: 'purple', choices: ['purple', 'blue', 'green', 'red'], metadata: { answer_index: 0, target: { shape: 'cross', colour: 'purple', x: 1220, y: 1377, radius: 20 }, targetBox: [1200, 1357, 1240, 1397], distractors: 220 } }],
    [{ difficulty: 1 }, 7, '02bbfd04ab54643b', { question: 'There is exactly one cross in this image; it is small. What is the colour of the cross?', answer: 'red', choices: ['brown', 'green', 'red', 'blue'], metadata: { answer_index: 2, target: { shape: 'cross', colour: 'red', x: 926, y: 178, radius: 10 }, targetBox: [916, 168, 936, 188], distractors: 400 } }],
    [{ difficulty: 0.3, question: 'shape' }, 2, 'ef7a44958c2332e9', { question: 'There is exactly one purple shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'cross', metadata: { target: { shape: 'cross', colour: 'purple', x: 1842, y: 1945, radius: 24 }, targetBox: [1818, 1921, 1866, 1969], distractors: 148 } }],
    [{ difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 }, 11, 'b010060e3b084976', { question: 'There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'cross', metadata: { target: { shape: 'cross', colour: 'red', x: 896, y: 1152, radius: 30 }, targetBox: [866, 1122, 926, 1182], distractors: 40 } }],
    [{ size: 3000, difficulty: 0.6, split: 'test' }, 4, '6d9aaa1873115783', { question: 'There is exactly one ring in this image; it is small. What is the colour of the ring?', answer: 'brown', choices: ['blue', 'green', 'orange', 'brown'], metadata: { answer_index: 3, target: { shape: 'ring', colour: 'brown', x: 1390, y: 2793, radius: 18 }, targetBox: [1372, 2775, 1408, 2811], distractors: 256 } }],
  ];

  it.each(pinned)('%j, task %i', (options, index, svgDigest, expected) => {
    const { svg, width, height, seed, answerType, ...rest } = createVisualSearchSource(options).generate(index);
    expect(digest(svg)).toBe(svgDigest);
    expect(rest).toEqual(expected);
    expect(answerType).toBe(expected.choices === undefined ? 'text' : 'multiple-choice');
    expect([width, height]).toEqual(options.size === undefined ? [2048, 2048] : [options.size, options.size]);
    expect(seed).toBe(options.split === 'test' ? 2 ** 31 + index : index);
  });
});

const isTargetShape = (object: SceneObject) => (TARGET_SHAPES as readonly string[]).includes(object.shape);
const centre = ({ box }: SceneObject) => ({ x: (box[0] + box[2]) / 2, y: (box[1] + box[3]) / 2 });
const sameBox = (object: SceneObject, box: Box) => object.box.every((value, index) => Math.abs(value - box[index]!) < 0.01);

/**
 * What the scene's markup says about a task: the one object its question names is the one at
 * `targetBox`, nothing else fits the description, the look-alikes asked for are there, and the answer
 * is that object's. Returns the look-alike counts seen.
 */
function checkScene(sample: GeneratedSample, lookalikes: VisualSearchLookalikes) {
  const objects = sceneObjects(sample.svg);
  const metadata = sample.metadata as { targetBox: Box; targetBoxes?: Box[]; target: { shape: string; colour: ColourName }; distractors: number };
  expect(objects).toHaveLength(metadata.distractors + (metadata.targetBoxes?.length ?? 1));
  const { shape, colour } = metadata.target;
  const question = sample.question;
  const seen = { colour: 0, shape: 0 };
  if (question.startsWith('Is the ')) {
    // Relation: each object named by colour and shape is the only one of that description.
    const named = [...question.matchAll(/the (\w+) (star|cross|ring)/g)].map(([, c, s]) => objects.filter((object) => object.colour === c && object.shape === s));
    expect(named.map((found) => found.length)).toEqual([1, 1]);
    expect(sameBox(named[0]![0]!, metadata.targetBox)).toBe(true);
    expect(sameBox(named[1]![0]!, metadata.targetBoxes![1]!)).toBe(true);
    const [a, b] = named.map((found) => centre(found[0]!));
    const answer = question.includes('left or right') ? (a!.x < b!.x ? 'left' : 'right') : a!.y < b!.y ? 'above' : 'below';
    expect(sample.answer).toBe(answer);
    expect(Math.abs(question.includes('left or right') ? a!.x - b!.x : a!.y - b!.y)).toBeGreaterThanOrEqual(RELATION_MIN_SEPARATION);
    const colours = named.map((found) => found[0]!.colour);
    seen.colour = objects.filter((object) => colours.includes(object.colour) && !isTargetShape(object)).length;
    seen.shape = objects.filter((object) => isTargetShape(object)).length - 2;
  } else if (question.includes('What is the colour')) {
    // Named by its shape: the only object of that shape; the answer is its colour.
    const named = objects.filter((object) => object.shape === shape);
    expect(question).toContain(`exactly one ${shape} `);
    expect(named).toHaveLength(1);
    expect(sameBox(named[0]!, metadata.targetBox)).toBe(true);
    expect(sample.answer).toBe(named[0]!.colour);
    seen.colour = objects.filter((object) => object.colour === colour && !isTargetShape(object)).length;
    seen.shape = objects.filter((object) => isTargetShape(object)).length - 1;
  } else {
    // Named by its colour (and, among look-alikes of that colour, by being a star, a cross or a ring).
    expect(question).toMatch(question.startsWith('Several') ? `Several shapes in this image are ${colour};` : `There is exactly one ${colour} shape in this image;`);
    const ofColour = objects.filter((object) => object.colour === colour);
    const named = question.startsWith('Several') ? ofColour.filter(isTargetShape) : ofColour;
    expect(named).toHaveLength(1);
    expect(sameBox(named[0]!, metadata.targetBox)).toBe(true);
    expect(sample.answer).toBe(named[0]!.shape);
    seen.colour = ofColour.length - 1;
    seen.shape = objects.filter(isTargetShape).length - 1;
  }
  const counts = (sample.metadata as { lookalikes?: { colour: number; shape: number } }).lookalikes;
  expect(counts === undefined).toBe(lookalikes === 'none');
  if (question.includes('What is the colour')) {
    // Asking the colour, plain distractors may have the target's colour too: the look-alikes are at least those counted.
    if (counts !== undefined) expect(seen.colour).toBeGreaterThanOrEqual(counts.colour);
    expect(counts === undefined || counts.colour > 0).toBe(lookalikes !== 'shape');
  } else {
    expect(seen.colour > 0, `${question}: colour look-alikes`).toBe(lookalikes === 'colour' || lookalikes === 'both');
    if (counts !== undefined) expect(counts.colour).toBe(seen.colour);
  }
  if (counts !== undefined) expect(counts.shape).toBe(seen.shape);
  if (lookalikes === 'shape' || lookalikes === 'both') expect(seen.shape).toBeGreaterThan(0);
  else expect(seen.shape).toBe(0);
  return seen;
}

describe('visual search levels', () => {
  it('grid is the recipe task: the same tasks as question shape, targetColour red, targetGrid 8 at difficulty 0', () => {
    const level = createVisualSearchSource({ level: 'grid' });
    const explicit = createVisualSearchSource({ difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 });
    expect(level.difficulty).toBe(0);
    for (const index of [0, 1, 2, 11, 500]) expect(level.generate(index)).toEqual(explicit.generate(index));
  });

  // Task 3 of the train split at each level: the question, the answer and the boxes an oracle crops.
  const expected: Record<VisualSearchLevel, { svg: string; question: string; answer: string; choices?: string[]; targetBox: Box; targetBoxes?: Box[] }> = {
    grid: { svg: 'ad3718fcc2b6644c', question: 'There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'ring', targetBox: [1378, 354, 1438, 414] },
    anywhere: { svg: '26fc56a16828da3e', question: 'There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'ring', targetBox: [1333, 329, 1393, 389] },
    lookalikes: { svg: 'a71d6aa4c2b49837', question: 'Several shapes in this image are red; exactly one of them is a star, a cross or a ring, and it is small. Is it a star, a cross or a ring?', answer: 'ring', targetBox: [1333, 329, 1393, 389] },
    'two-look': { svg: '0f712e6ba95e0593', question: 'Several shapes in this image are red; exactly one of them is a star, a cross or a ring, and it is small. Is it a star, a cross or a ring?', answer: 'ring', targetBox: [1357, 353, 1369, 365] },
    relation: { svg: '376dae99d0865720', question: 'Is the yellow ring on the left or right side of the blue cross?', answer: 'right', choices: ['left', 'right'], targetBox: [1333, 329, 1393, 389], targetBoxes: [[1333, 329, 1393, 389], [497, 770, 557, 830]] },
  };
  it.each(VISUAL_SEARCH_LEVEL_NAMES)('level %s, task 3', (level) => {
    const sample = createVisualSearchSource({ level }).generate(3);
    const want = expected[level];
    const metadata = sample.metadata as { targetBox: Box; targetBoxes?: Box[] };
    expect({ svg: digest(sample.svg), question: sample.question, answer: sample.answer, choices: sample.choices, targetBox: metadata.targetBox, targetBoxes: metadata.targetBoxes }).toEqual({ ...want, choices: want.choices, targetBoxes: want.targetBoxes });
    expect(sample.answerType).toBe(level === 'relation' ? 'multiple-choice' : 'text');
  });

  it.each(VISUAL_SEARCH_LEVEL_NAMES)('level %s: the named target is unique in the scene and the answer is its own (200 tasks)', (level) => {
    const source = createVisualSearchSource({ level });
    const lookalikes = VISUAL_SEARCH_LEVELS[level].lookalikes ?? 'none';
    for (let index = 0; index < 200; index++) checkScene(source.generate(index), lookalikes);
  });

  it.each(['colour', 'shape', 'relation'] as const)("question %s: each kind of look-alike at difficulty 0.5 and 1, the named object still unique (25 tasks each)", (question) => {
    for (const lookalikes of VISUAL_SEARCH_LOOKALIKES) {
      for (const difficulty of [0.5, 1]) {
        const source = createVisualSearchSource({ question, lookalikes, difficulty, split: 'test' });
        for (let index = 0; index < 25; index++) checkScene(source.generate(index), lookalikes);
      }
    }
  });

  it('relation questions: left/right by default, above/below or either on request, answered from the true positions', () => {
    const answers = (relationAxis?: VisualSearchRelationAxis) =>
      Array.from({ length: 40 }, (_, index) => {
        const sample = createVisualSearchSource({ question: 'relation', relationAxis, difficulty: 0.3 }).generate(index);
        checkScene(sample, 'none');
        const metadata = sample.metadata as { answer_index: number; relationAxis: string; targetBox: Box; targetBoxes: Box[] };
        expect(sample.choices![metadata.answer_index]).toBe(sample.answer);
        expect(metadata.targetBoxes[0]).toEqual(metadata.targetBox);
        return sample.answer as string;
      });
    expect(new Set(answers())).toEqual(new Set(['left', 'right']));
    expect(new Set(answers('vertical'))).toEqual(new Set(['above', 'below']));
    expect(new Set(answers('either'))).toEqual(new Set(['left', 'right', 'above', 'below']));
  });

  it('the option a level sets gives way to one given beside it', () => {
    expect(createVisualSearchSource({ level: 'grid', difficulty: 0.5 }).difficulty).toBe(0.5);
    expect(createVisualSearchSource({ level: 'grid', targetGrid: 4 }).settings).toMatchObject({ question: 'shape', targetColour: 'red', targetGrid: 4 });
    expect(createVisualSearchSource({ level: 'two-look', targetRadius: 8 }).generate(0).metadata['target']).toMatchObject({ radius: 8 });
    expect(createVisualSearchSource({ level: 'lookalikes', lookalikes: 'both' }).settings.lookalikes).toBe('both');
    expect(createVisualSearchSource({ level: 'relation', relationAxis: 'vertical' }).generate(0).question).toBe('Is the purple cross above or below the cyan ring?');
  });

  it('targetRadius resizes the target in the same scene; lookalikes none and the default radius draw what the defaults draw', () => {
    expect(createVisualSearchSource({ difficulty: 0, targetRadius: 30 }).generate(4)).toEqual(createVisualSearchSource({ difficulty: 0 }).generate(4));
    expect(createVisualSearchSource({ difficulty: 0.5, lookalikes: 'none' }).generate(4)).toEqual(createVisualSearchSource({ difficulty: 0.5 }).generate(4));
    const small = createVisualSearchSource({ difficulty: 0, question: 'shape', targetRadius: 4 }).generate(0).metadata as { targetBox: Box; target: { shape: string; x: number; y: number; radius: number } };
    expect(small.target).toEqual({ ...(createVisualSearchSource({ difficulty: 0, question: 'shape' }).generate(0).metadata['target'] as object), radius: 4 });
    expect(small.target.shape).toBe('cross');
    expect(small.targetBox).toEqual([small.target.x - 4, small.target.y - 4, small.target.x + 4, small.target.y + 4]);
  });

  it('a searching teacher (oracleDecoys) crops 0 to n far red look-alikes before the target; the task is the same (60 tasks)', () => {
    const plain = createVisualSearchSource({ level: 'lookalikes' });
    const searching = createVisualSearchSource({ level: 'lookalikes', oracleDecoys: 2 });
    const decoyCounts = [0, 0, 0];
    for (let index = 0; index < 60; index++) {
      const [task, taught] = [plain.generate(index), searching.generate(index)];
      const { targetBoxes, ...rest } = taught.metadata as { targetBoxes?: Box[]; targetBox: Box };
      // The scene, question, answer and every other field are the plain task's.
      expect({ ...taught, metadata: rest }).toEqual(task);
      const path = targetBoxes ?? [rest.targetBox];
      expect(path.at(-1)).toEqual(rest.targetBox);
      const decoys = path.slice(0, -1);
      decoyCounts[decoys.length]!++;
      const red = sceneObjects(taught.svg).filter((object) => object.colour === 'red' && !TARGET_SHAPES.includes(object.shape as never));
      const centre = (box: readonly number[]) => [(box[0]! + box[2]!) / 2, (box[1]! + box[3]!) / 2];
      const [tx, ty] = centre(rest.targetBox);
      for (const decoy of decoys) {
        // A red look-alike of the scene, at least 512 px from the target along x or y.
        expect(red.some((object) => object.box.every((value, at) => Math.abs(value - decoy[at]!) < 0.01))).toBe(true);
        const [dx, dy] = centre(decoy);
        expect(Math.max(Math.abs(dx! - tx!), Math.abs(dy! - ty!))).toBeGreaterThanOrEqual(512);
      }
    }
    expect(decoyCounts.every((count) => count > 5)).toBe(true);
    expect(() => createVisualSearchSource({ level: 'anywhere', oracleDecoys: 1 })).toThrow(
      "Invalid argument oracleDecoys: expected an integer from 0 to 3, above 0 only with lookalikes 'colour' or 'both' and a colour or shape question, received 1.",
    );
    expect(() => createVisualSearchSource({ level: 'lookalikes', oracleDecoys: 4 })).toThrow(/oracleDecoys: expected an integer from 0 to 3/);
  });

  it('refuses a level, look-alikes, radius or relation axis it does not know, naming what it expected', () => {
    expect(() => createVisualSearchSource({ level: 'hard' as never })).toThrow('Invalid argument level: expected one of grid, anywhere, lookalikes, two-look, relation, received "hard".');
    expect(() => createVisualSearchSource({ lookalikes: 'size' as never })).toThrow('Invalid argument lookalikes: expected one of none, colour, shape, both, received "size".');
    expect(() => createVisualSearchSource({ targetRadius: 3 })).toThrow('Invalid argument targetRadius: expected an integer from 4 to 64 (pixels), received 3.');
    expect(() => createVisualSearchSource({ targetRadius: 65 })).toThrow(/targetRadius: expected an integer from 4 to 64 \(pixels\), received 65/);
    expect(() => createVisualSearchSource({ targetRadius: 6.5 })).toThrow(/targetRadius: expected an integer from 4 to 64 \(pixels\), received 6.5/);
    expect(() => createVisualSearchSource({ relationAxis: 'vertical' })).toThrow("Invalid argument relationAxis: expected with question 'relation', one of horizontal, vertical, either, received \"vertical\".");
    expect(() => createVisualSearchSource({ question: 'relation', relationAxis: 'diagonal' as never })).toThrow(/relationAxis: expected with question 'relation', one of horizontal, vertical, either, received "diagonal"/);
    expect(() => createVisualSearchSource({ question: 'where' as never })).toThrow(/question: expected colour \| shape \| relation, received "where"/);
    expect(InvalidArgumentError.isInstance(catchError(() => createVisualSearchSource({ level: 7 as never })))).toBe(true);
  });

  it('renders the two-look target and both objects of a relation where their boxes say (2 renders)', async () => {
    const twoLook = await createVisualSearchSource({ level: 'two-look' }).get(3);
    const pixels = await pixelsOf(twoLook.images[0] as ImageData);
    const box = twoLook.metadata!['targetBox'] as Box;
    // Every red pixel lies in one of the 11 red objects the markup draws (the 12-px ring and its 10
    // look-alikes), and each of them shows red; the ring's pixels fill its box.
    const redObjects = sceneObjects((await createVisualSearchSource({ level: 'two-look' }).sample(3)).svg).filter((object) => object.colour === 'red');
    expect(redObjects).toHaveLength(11);
    const holder = (blob: { minX: number; maxX: number; minY: number; maxY: number }) =>
      redObjects.findIndex(({ box: [x1, y1, x2, y2] }) => blob.minX >= Math.floor(x1) && blob.maxX < Math.ceil(x2) && blob.minY >= Math.floor(y1) && blob.maxY < Math.ceil(y2));
    const red = components(pixels, COLOURS.red);
    expect(red.map(holder).filter((index) => index < 0)).toEqual([]);
    expect(new Set(red.map(holder)).size).toBe(11);
    const inBox = red.filter((blob) => blob.minX >= box[0] && blob.maxX < box[2] && blob.minY >= box[1] && blob.maxY < box[3]);
    expect(Math.min(...inBox.map((blob) => blob.minX))).toBeLessThanOrEqual(box[0] + 1);
    expect(Math.max(...inBox.map((blob) => blob.maxX))).toBeGreaterThanOrEqual(box[2] - 2);
    // A ring: the centre of its box is background.
    expect(Math.min(...pixels.rgb((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))).toBeGreaterThan(200);

    const relation = await createVisualSearchSource({ level: 'relation' }).get(3);
    const scene = await pixelsOf(relation.images[0] as ImageData);
    const [first, second] = relation.metadata!['targetBoxes'] as [Box, Box];
    for (const [colour, [x1, y1, x2, y2]] of [['yellow', first], ['blue', second]] as const) {
      const blobs = components(scene, COLOURS[colour], [x1 - 8, y1 - 8, x2 + 8, y2 + 8]);
      expect(blobs, colour).toHaveLength(1);
      expect([blobs[0]!.minX >= x1, blobs[0]!.maxX < x2, blobs[0]!.minY >= y1, blobs[0]!.maxY < y2]).toEqual([true, true, true, true]);
    }
  });

  it('every level plays in saccade/VisualSearch-v1: reset gives the asked object\'s box, the oracle\'s answer scores 1', async () => {
    registerVqaEnvs();
    registerProceduralEnvs();
    for (const level of VISUAL_SEARCH_LEVEL_NAMES) {
      const env = makeEnv(VISUAL_SEARCH_ID, { level, split: 'test' });
      const task = await createVisualSearchSource({ level, split: 'test' }).get(1);
      const { info } = await env.reset({ seed: 1 });
      expect(info['targetBox'], level).toEqual(task.metadata!['targetBox']);
      expect(targetBoxOf(task), level).toEqual(task.metadata!['targetBox']);
      const result = await env.step(`<answer>${oracleAnswer(task)}</answer>`);
      expect(result, level).toMatchObject({ reward: 1, terminated: true, info: { metrics: { success: true } } });
      await env.close();
    }
  });

  it("the tool-use wrapper's looking oracle plays every level to reward 1, looking at both objects of a relation", async () => {
    registerVqaEnvs();
    registerProceduralEnvs();
    const calls: Record<string, number[][]> = {};
    for (const level of VISUAL_SEARCH_LEVEL_NAMES) {
      const env = new ToolUseWrapper(makeEnv(VISUAL_SEARCH_ID, { level, split: 'test' }), { tools: [pointCrop], maxTurns: 4 });
      const { info } = await env.reset({ seed: 1 });
      calls[level] = [];
      for (let turn = 0; turn < 4; turn++) {
        const result = await env.step(await env.oracleResponse!());
        for (const record of (result.info['toolCalls'] as { region: number[] }[] | undefined) ?? []) calls[level].push(record.region);
        if (result.terminated) {
          expect([level, result.reward, result.info['metrics']]).toEqual([level, 1, expect.objectContaining({ success: true, target_hit: true })]);
          break;
        }
      }
      // Each crop holds the box it was made for: the target, then (relation) the second object.
      const boxes = (info['targetBoxes'] as Box[] | undefined) ?? [info['targetBox'] as Box];
      expect(calls[level].length, level).toBe(boxes.length);
      calls[level].forEach((region, index) => expect(region[0]! <= boxes[index]![0] && region[2]! >= boxes[index]![2] && region[1]! <= boxes[index]![1] && region[3]! >= boxes[index]![3], `${level} crop ${index}`).toBe(true));
      await env.close();
    }
    expect(calls['relation']).toHaveLength(2);
  });
});

/** `{x, y}`, both numbers: a Standard Schema written out, with its JSON Schema for the tools prompt. */
const pointSchema: StandardSchemaV1<unknown, { x: number; y: number }> = {
  '~standard': {
    version: 1,
    vendor: 'saccade-test',
    validate: (value) => {
      const point = value as { x?: unknown; y?: unknown } | null;
      return typeof point?.x === 'number' && typeof point.y === 'number' ? { value: { x: point.x, y: point.y } } : { issues: [{ message: 'expected {x, y}, two numbers' }] };
    },
    jsonSchema: { input: () => ({ type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] }) },
  } as StandardSchemaV1<unknown, { x: number; y: number }>['~standard'],
};

/** ViGoRL's point crop on V*: 364 px of the original around a point, seen at 128 px; it can look at a box through its centre. */
const pointCrop = defineTool({
  name: 'look',
  description: 'Returns the 364-px region around (x, y) of the image at 128 px.',
  inputSchema: pointSchema,
  async execute({ x, y }, { images }) {
    const box = clipBox({ x1: x - 182, y1: y - 182, x2: x + 182, y2: y + 182 }, 2048, 2048);
    const image = await crop(images[0] as ImageData, box, { resize: { width: 128, height: 128, fit: 'fill' } });
    return { text: `The region around (${x}, ${y}).`, images: [{ data: image.data, mediaType: 'image/png', width: 128, height: 128 }], region: [box.x1, box.y1, box.x2, box.y2] };
  },
  lookAt: ([x1, y1, x2, y2]) => ({ x: Math.round((x1 + x2) / 2), y: Math.round((y1 + y2) / 2) }),
});
