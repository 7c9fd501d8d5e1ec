import { getAnswerChecker, pointInImage } from '@saccade/core';
import { describe, expect, it } from 'vitest';
import { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, scoreGroundedEpisode, type GroundedRewardSetName } from './grounded-reward-sets';
import { distinctPoints, groundedPoints } from './grounding-checks';

// A V*-like question on an 800 × 600 image: the sign is green, option B.
const imageSize = { width: 800, height: 600 };
const target = { answer: 'green', choices: ['red', 'green', 'blue', 'yellow'] };
const checker = getAnswerChecker('V*Bench');
const score = (rewardSet: GroundedRewardSetName, responses: string[], extra: { maxCrops?: number } = {}) =>
  scoreGroundedEpisode(rewardSet, { responses, imageSize, target, answerType: 'multiple-choice', checker, ...extra });

const crop = (x: number | string, y: number | string, think = 'I look closer.') => `<think>${think}</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [${x}, ${y}]}}\n</tool_call>`;
const answer = (letter: string, think = 'The crop shows the sign.') => `<think>${think}</think>\n<answer>${letter}</answer>`;

describe('grounding checks', () => {
  it('a point is on the image when 0 ≤ x < width and 0 ≤ y < height', () => {
    expect([pointInImage({ x: 0, y: 0 }, imageSize), pointInImage({ x: 799, y: 599 }, imageSize), pointInImage({ x: 800, y: 10 }, imageSize), pointInImage({ x: 10, y: 600 }, imageSize)]).toEqual([true, true, false, false]);
    expect(groundedPoints('left (12, 40), off (800, 3), far (3000,3000), edge (799, 599)', imageSize)).toEqual([{ x: 12, y: 40 }, { x: 799, y: 599 }]);
  });

  it('distinct points are at least 10 px from every point counted before them', () => {
    const points = [{ x: 100, y: 100 }, { x: 105, y: 105 }, { x: 110, y: 100 }, { x: 106, y: 108 }, { x: 300, y: 300 }];
    // (105, 105) is 7.07 px from (100, 100); (110, 100) exactly 10; (106, 108) is 8.94 from (110, 100).
    expect(distinctPoints(points)).toEqual([{ x: 100, y: 100 }, { x: 110, y: 100 }, { x: 300, y: 300 }]);
    expect(distinctPoints(points, 20).map(({ x }) => x)).toEqual([100, 300]);
  });
});

describe('vigorl-single-turn: 0.5·acc + 0.5·format·grounded', () => {
  it.each([
    ['correct, well formed, grounded', '<think>\nThe sign at (120, 45) is green.\n</think>\n<answer>B</answer>', 1, { accuracy: 0.5, groundedFormat: 0.5 }],
    ['the option text counts as the answer', '<think>The sign (120, 45).</think><answer>green</answer>', 1, { accuracy: 0.5, groundedFormat: 0.5 }],
    ['correct and well formed but no point', '<think>The sign is green.</think><answer>B</answer>', 0.5, { accuracy: 0.5, groundedFormat: 0 }],
    ['correct, the only point off the image', '<think>The sign at (800, 45) is green.</think><answer>B</answer>', 0.5, { accuracy: 0.5, groundedFormat: 0 }],
    ['wrong but well formed and grounded', '<think>The sign at (120, 45) is red.</think><answer>A</answer>', 0.5, { accuracy: 0, groundedFormat: 0.5 }],
    ['correct, text after the answer breaks the format', '<think>(120, 45)</think><answer>B</answer> done', 0.5, { accuracy: 0.5, groundedFormat: 0 }],
    ['a point outside <think> grounds nothing', '<think>It is green.</think><answer>B (120, 45)</answer>', 0, { accuracy: 0, groundedFormat: 0 }],
    ['wrong and unformatted', 'It is red.', 0, { accuracy: 0, groundedFormat: 0 }],
  ])('%s', (_, response, reward, terms) => {
    const result = score('vigorl-single-turn', [response]);
    expect(result.reward).toBe(reward);
    expect(result.terms).toEqual(terms);
  });

  it('says why the format or grounding failed', () => {
    expect(score('vigorl-single-turn', ['<think>The sign at (800, 45).</think><answer>B</answer>']).problems).toEqual(['no point of <think> lies on the 800 × 600 image']);
    const clicks = scoreGroundedEpisode('vigorl-single-turn', {
      responses: ['<think>The button (30, 40).</think><answer>the button</answer>'],
      imageSize,
      target: { answer: [20, 30, 60, 50] },
      answerType: 'point',
      checker: getAnswerChecker('ScreenSpot'),
    });
    expect(clicks).toMatchObject({ reward: 0, signals: { accuracy: 0, format: 0, grounded: 1 } });
    expect(clicks.problems[0]).toContain('expected an answer of the form (x, y)');
    expect(scoreGroundedEpisode('vigorl-single-turn', { responses: ['<think>The button (30, 40).</think><answer>(40, 45)</answer>'], imageSize, target: { answer: [20, 30, 60, 50] }, answerType: 'point', checker: getAnswerChecker('ScreenSpot') }).reward).toBe(1);
  });
});

describe('vigorl-multi-turn: 0.6·acc + 0.4·format + 0.2 per extra distinct crop point', () => {
  it.each([
    ['one crop, correct', [crop(100, 200), answer('B')], 1, { accuracy: 0.6, format: 0.4, cropBonus: 0 }],
    ['three crops, two distinct (the second is 7 px from the first)', [crop(100, 200), crop(105, 205), crop(600, 300), answer('B')], 1.2, { accuracy: 0.6, format: 0.4, cropBonus: 0.2 }],
    ['four distinct crops, correct', [crop(100, 200), crop(110, 200), crop(600, 300), crop(10, 590), answer('B')], 1.6, { accuracy: 0.6, format: 0.4, cropBonus: 0.6 }],
    ['four distinct crops, wrong', [crop(100, 200), crop(110, 200), crop(600, 300), crop(10, 590), answer('C')], 1, { accuracy: 0, format: 0.4, cropBonus: 0.6 }],
    ['answer without cropping', [answer('B')], 1, { accuracy: 0.6, format: 0.4, cropBonus: 0 }],
    ['a crop off the image is no crop', [crop(100, 200), crop(900, 200), answer('B')], 1, { accuracy: 0.6, format: 0.4, cropBonus: 0 }],
    ['a float coordinate breaks the format but still crops', [crop(100, 200), crop(300.5, 200), answer('B')], 0.8, { accuracy: 0.6, format: 0, cropBonus: 0.2 }],
    ['a tool turn without thinking breaks the format', [crop(100, 200), '<tool_call>{"name": "search_coordinate", "arguments": {"coordinate": [300, 200]}}</tool_call>', answer('B')], 0.8, { accuracy: 0.6, format: 0, cropBonus: 0.2 }],
    ['no answer at the end', [crop(100, 200), crop(300, 200)], 0.2, { accuracy: 0, format: 0, cropBonus: 0.2 }],
  ])('%s', (_, responses, reward, terms) => {
    const result = score('vigorl-multi-turn', responses);
    expect(result.reward).toBe(reward);
    expect(result.terms).toEqual(terms);
  });

  it('counts crops up to the budget only, and the crops an env reports when given', () => {
    const five = [crop(10, 10), crop(100, 10), crop(200, 10), crop(300, 10), crop(400, 10), answer('B')];
    expect(score('vigorl-multi-turn', five).signals).toEqual({ accuracy: 1, format: 1, crops: 4, distinctCrops: 4 });
    expect(score('vigorl-multi-turn', five, { maxCrops: 2 }).terms.cropBonus).toBe(0.2);
    const reported = scoreGroundedEpisode('vigorl-multi-turn', { responses: five, imageSize, target, checker, crops: [{ x: 10, y: 10 }] });
    expect(reported.terms.cropBonus).toBe(0);
  });
});

describe('deepeyes: 0.8·acc + 0.2·format + 1.2·[tool used ∧ correct]', () => {
  it.each([
    ['a crop, then correct', [crop(100, 200), answer('B')], 2.2, { accuracy: 0.8, format: 0.2, toolBonus: 1.2 }],
    ['correct without a tool', [answer('B')], 1, { accuracy: 0.8, format: 0.2, toolBonus: 0 }],
    ['a crop, then wrong', [crop(100, 200), answer('A')], 0.2, { accuracy: 0, format: 0.2, toolBonus: 0 }],
    ['a crop, then correct but unformatted', [crop(100, 200), 'It is <answer>B</answer>'], 2, { accuracy: 0.8, format: 0, toolBonus: 1.2 }],
    ['a crop off the image is no tool use', [crop(1000, 200), answer('B')], 1, { accuracy: 0.8, format: 0.2, toolBonus: 0 }],
  ])('%s', (_, responses, reward, terms) => {
    const result = score('deepeyes', responses);
    expect(result.reward).toBe(reward);
    expect(result.terms).toEqual(terms);
  });

  it('names every set with its formula and mode, and refuses unknown ones', () => {
    expect(GROUNDED_REWARD_SETS.map((name) => [name, GROUNDED_REWARD_SET_INFO[name].mode, GROUNDED_REWARD_SET_INFO[name].formula])).toEqual([
      ['vigorl-single-turn', 'single-turn', '0.5·accuracy + 0.5·format·grounded'],
      ['vigorl-multi-turn', 'multi-turn', '0.6·accuracy + 0.4·format + 0.2·(distinct crop points − 1)'],
      ['deepeyes', 'multi-turn', '0.8·accuracy + 0.2·format + 1.2·[tool used ∧ correct]'],
    ]);
    expect(() => score('vigorl' as GroundedRewardSetName, [answer('B')])).toThrow('expected vigorl-single-turn | vigorl-multi-turn | deepeyes');
  });
});
