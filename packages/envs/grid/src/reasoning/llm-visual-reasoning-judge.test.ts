import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { FrozenLakeEnv } from '../frozen-lake/frozen-lake-env';
import { SokobanEnv } from '../sokoban/sokoban-env';
import { createLlmVisualReasoningJudge, judgePrompt } from './llm-visual-reasoning-judge';
import { judgeRelationsOf, maximumMatchingWeight, parseJudgeRelations, scoreJudgeRelations } from './judge-relations';
import type { FrozenLakeSymbolicState, SokobanSymbolicState } from './symbolic-state';

// Player at row 2, column 2; the goal up and to the right; holes left, below, and up-left.
const LAKE: FrozenLakeSymbolicState = {
  env: 'frozen-lake',
  rows: 4,
  cols: 4,
  player: { row: 2, col: 2 },
  goal: { row: 0, col: 3 },
  holes: [{ row: 2, col: 0 }, { row: 3, col: 2 }, { row: 1, col: 1 }],
};
// Player at (3, 3); the target up-left, the box directly above.
const ROOM: SokobanSymbolicState = { env: 'sokoban', rows: 6, cols: 6, player: { row: 3, col: 3 }, boxes: [{ row: 2, col: 3 }], targets: [{ row: 1, col: 1 }], walls: [] };
const json = (relations: [string, string | null, string | null][]) =>
  JSON.stringify(relations.map(([object_id, vertical_relation, horizontal_relation]) => ({ object_id, vertical_relation, horizontal_relation })));

describe("VAGEN's judge scoring", () => {
  it('true relations are relative to the player', () => {
    expect(judgeRelationsOf(ROOM)).toEqual([
      { objectId: 'target', vertical: 'above', horizontal: 'left' },
      { objectId: 'box', vertical: 'above', horizontal: 'same' },
    ]);
    expect(judgeRelationsOf(LAKE).map((relation) => `${relation.objectId}:${relation.vertical}:${relation.horizontal}`)).toEqual([
      'target:above:right',
      'hole:same:left',
      'hole:below:same',
      'hole:above:left',
    ]);
  });

  it('reads the first JSON array of an answer: fenced, with // comments, with doubled braces; none is undefined', () => {
    const answer = 'Sure.\n```json\n[\n  {{\n    "object_id": "target", // the goal\n    "vertical_relation": "above",\n    "horizontal_relation": null\n  }}\n]\n```';
    expect(parseJudgeRelations(answer)).toEqual([{ objectId: 'target', vertical: 'above', horizontal: null }]);
    expect(parseJudgeRelations('[1, 2] then [{"object_id": "Box", "horizontal_relation": "LEFT"}]')).toEqual([{ objectId: 'box', vertical: null, horizontal: 'left' }]);
    expect(parseJudgeRelations('[]')).toEqual([]);
    expect(parseJudgeRelations('no JSON here [ {"object_id": ')).toBeUndefined();
  });

  it('Sokoban: 0.5·F1(targets) + 0.5·F1(boxes), exact matches', () => {
    expect(scoreJudgeRelations([{ objectId: 'target', vertical: 'above', horizontal: 'left' }, { objectId: 'box', vertical: 'above', horizontal: 'same' }], ROOM)).toBe(1);
    expect(scoreJudgeRelations([{ objectId: 'target', vertical: 'above', horizontal: 'left' }], ROOM)).toBe(0.5);
    // Box half right: no exact match. Two target claims, one right: F1 = 2·(1/2·1)/(1/2+1) = 2/3.
    expect(scoreJudgeRelations([{ objectId: 'target', vertical: 'above', horizontal: 'left' }, { objectId: 'target', vertical: 'below', horizontal: 'left' }, { objectId: 'box', vertical: 'above', horizontal: null }], ROOM)).toBeCloseTo(1 / 3, 12);
    expect(scoreJudgeRelations([], ROOM)).toBe(0);
  });

  it('FrozenLake: weighted bipartite F1 with half points per direction (target 0.7, hole 0.3)', () => {
    expect(scoreJudgeRelations(judgeRelationsOf(LAKE), LAKE)).toBe(1);
    // Target: vertical right only → match 0.5, P = R = 0.5, F1 0.5. No holes stated → hole F1 0. (0.7·0.5 + 0.3·0) / 1.
    expect(scoreJudgeRelations([{ objectId: 'target', vertical: 'above', horizontal: 'left' }], LAKE)).toBeCloseTo(0.35, 12);
    // Holes: stated (below, same) and (above, null) → best matching 1 + 0.5 = 1.5 over 2 stated, 3 true:
    // P 0.75, R 0.5, F1 0.6. Target exact: 1. (0.7 + 0.3·0.6) = 0.88.
    expect(
      scoreJudgeRelations(
        [{ objectId: 'target', vertical: 'above', horizontal: 'right' }, { objectId: 'hole', vertical: 'below', horizontal: 'same' }, { objectId: 'hole', vertical: 'above', horizontal: null }],
        LAKE,
      ),
    ).toBeCloseTo(0.88, 12);
  });

  it('the matching weight is the optimum, not the greedy one', () => {
    // Greedy takes 0.9 then 0.1 (1.0); the optimum is 0.8 + 0.8.
    expect(maximumMatchingWeight([[0.9, 0.8], [0.8, 0.1]])).toBeCloseTo(1.6, 12);
    expect(maximumMatchingWeight([[1, 0.5, 0]])).toBe(1);
    expect(maximumMatchingWeight([[0], [0.5], [1]])).toBe(1);
    expect(maximumMatchingWeight([])).toBe(0);
  });
});

describe('createLlmVisualReasoningJudge', () => {
  it("sends VAGEN's prompt with the description, scores the answer, caches by (prompt, state), shares calls in flight", async () => {
    const prompts: string[] = [];
    const judge = createLlmVisualReasoningJudge({
      complete: async (prompt) => {
        prompts.push(prompt);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return json([['target', 'above', 'left'], ['box', 'above', 'same']]);
      },
    });
    const [first, shared] = await Promise.all([judge('grounding', 'The box is above me.', ROOM), judge('grounding', 'The box is above me.', ROOM)]);
    expect([first, shared]).toEqual([1, 1]);
    expect(await judge('worldmodel', 'The box is above me.', ROOM)).toBe(1);
    const moved: SokobanSymbolicState = { ...ROOM, player: { row: 2, col: 4 } }; // the box now to the left
    expect(await judge('grounding', 'The box is above me.', moved)).toBe(0.5); // a new state: asked again
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toBe(judgePrompt('The box is above me.', ROOM));
    expect(prompts[0]).toContain('Input Text to Parse:\nThe box is above me.\n\nObjects to Look For: target, box');
    expect(judge.statistics).toEqual({ calls: 4, cacheHits: 2, requests: 2, failures: 0, unparsed: 0 });
    expect(judgePrompt('x', LAKE)).toContain('Objects to Look For: target, hole\n\nJSON Output:\n');
  });

  it('a failed call rejects, is counted and not cached; an answer without JSON scores 0 and is counted as unparsed', async () => {
    let up = false;
    const judge = createLlmVisualReasoningJudge({
      complete: async () => {
        if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
        return 'I cannot tell.';
      },
    });
    await expect(judge('grounding', 'x', ROOM)).rejects.toThrow('ECONNREFUSED');
    up = true;
    expect(await judge('grounding', 'x', ROOM)).toBe(0);
    expect(judge.statistics).toEqual({ calls: 2, cacheHits: 0, requests: 2, failures: 1, unparsed: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(() => createLlmVisualReasoningJudge({ complete: 'http://x' as never })).toThrow(InvalidArgumentError);
  });

  it('in an env: an unreachable judge scores the term 0, counts it in the metrics, and the episode goes on', async () => {
    const judge = createLlmVisualReasoningJudge({
      complete: async () => {
        throw new Error('judge down');
      },
    });
    const env = new SokobanEnv({ format: 'grounding_worldmodeling', visualReasoningReward: true, judge, observation: 'text' });
    await env.reset({ seed: 3 });
    const result = await env.step(
      '<think><observation>The box is above the player.</observation><reasoning>push</reasoning><prediction>The box is still above.</prediction></think><answer>Left</answer>',
    );
    expect(result.info.rewardTerms).toMatchObject({ format: 0.5, grounding: 0, worldmodel: 0 });
    expect(result.info.metrics).toMatchObject({ judge_failures: 2 });
    expect(result.info.judgeError).toBe('grounding: judge down');
    expect(judge.statistics.failures).toBe(2);
    await env.close();
  });

  it('judge settings that are not a function are refused when the env is made', () => {
    expect(() => new FrozenLakeEnv({ judge: { url: 'http://127.0.0.1:1/v1' } as never })).toThrow(/Invalid argument judge: expected a function/);
  });
});
