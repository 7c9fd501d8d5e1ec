import { parseGroundedResponse, parseGroundedTurn, pointInImage, readAnswer, SEARCH_COORDINATE, type AnswerChecker, type AnswerTarget, type AnswerType, type ImageSize, type Point } from '@saccade/core';
import { InvalidArgumentError } from '@saccade/spec';
import { distinctPoints, DISTINCT_POINT_DISTANCE, groundedPoints } from './grounding-checks';

/** The grounded reward configurations, by name (REFERENCE §6; docs/grounding.md). */
export const GROUNDED_REWARD_SETS = ['vigorl-single-turn', 'vigorl-multi-turn', 'deepeyes'] as const;
/** A name of GROUNDED_REWARD_SETS. */
export type GroundedRewardSetName = (typeof GROUNDED_REWARD_SETS)[number];

/** A reward set's name, the episodes it scores, its formula and a description. */
export interface GroundedRewardSet {
  name: GroundedRewardSetName;
  /** Which episodes it scores: one grounded response, or a dialogue of crops ending in an answer. */
  mode: 'single-turn' | 'multi-turn';
  formula: string;
  description: string;
}

/** Each reward set's mode and description, by name. */
export const GROUNDED_REWARD_SET_INFO: Readonly<Record<GroundedRewardSetName, GroundedRewardSet>> = {
  'vigorl-single-turn': {
    name: 'vigorl-single-turn',
    mode: 'single-turn',
    formula: '0.5·accuracy + 0.5·format·grounded',
    description: 'ViGoRL single turn: format and grounding pay only together; grounded = at least one (x, y) inside the image in <think>.',
  },
  'vigorl-multi-turn': {
    name: 'vigorl-multi-turn',
    mode: 'multi-turn',
    formula: '0.6·accuracy + 0.4·format + 0.2·(distinct crop points − 1)',
    description: 'ViGoRL multi turn: every turn well formed, plus 0.2 for each crop point after the first that is ≥ 10 px from the earlier ones.',
  },
  deepeyes: {
    name: 'deepeyes',
    mode: 'multi-turn',
    formula: '0.8·accuracy + 0.2·format + 1.2·[tool used ∧ correct]',
    description: 'DeepEyes: the tool bonus pays only a correct answer reached with at least one crop.',
  },
};

/** An episode to score: the agent's responses, the image's size, the task's target and how answers are checked. */
export interface GroundedEpisodeInput {
  /** The assistant's responses in order: one for a single-turn episode; tool turns then the answer for a multi-turn one. */
  responses: readonly string[];
  /** The image as the model saw it: points must lie on it. */
  imageSize: ImageSize;
  /** The reference answer and its context (choices, metadata). */
  target: AnswerTarget;
  answerType?: AnswerType;
  checker: AnswerChecker;
  /** Crops the episode may take (default 4: ViGoRL's budget of the original + 4 crops); calls past it are refused. */
  maxCrops?: number;
  /** Tools the model may call (default `['search_coordinate']`). */
  toolNames?: readonly string[];
  /**
   * The crops that ran, when an env knows them (a call whose tool failed made none). Default: read
   * from the responses: each tool turn's first call, with its point on the image, within the budget.
   */
  crops?: readonly Point[];
  /** Distinct crop points are at least this far apart (default 10 px). */
  minDistance?: number;
}

/** Unweighted signals of an episode, each 0 or 1 unless said. */
export interface GroundedSignals {
  accuracy: number;
  format: number;
  /** Single turn: at least one point inside the image in <think>. */
  grounded?: number;
  /** Multi turn: crops that ran, and how many of their points were distinct. */
  crops?: number;
  distinctCrops?: number;
  /** DeepEyes: at least one crop ran. */
  toolUsed?: number;
}

/** A scored episode: the reward, its named terms, the signals read from the responses and any problems found. */
export interface GroundedReward {
  rewardSet: GroundedRewardSetName;
  /** The sum of `terms`. */
  reward: number;
  /** Weighted terms (the env's `info.rewardTerms`). */
  terms: Record<string, number>;
  signals: GroundedSignals;
  /** The final answer read, when there is one. */
  answer?: string;
  /** Single turn: the grounded points of <think>; multi turn: the crop points that ran. */
  points: Point[];
  /** Why format (or grounding) was 0, one line per problem. */
  problems: string[];
}

/** Rounds away float noise (0.6 + 0.2·3 is 1.2, not 1.2000000000000002). */
const round = (value: number) => Math.round(value * 1e9) / 1e9;

function resolveSet(rewardSet: GroundedRewardSetName | GroundedRewardSet): GroundedRewardSet {
  const name = typeof rewardSet === 'string' ? rewardSet : rewardSet?.name;
  const info = GROUNDED_REWARD_SETS.includes(name as GroundedRewardSetName) ? GROUNDED_REWARD_SET_INFO[name as GroundedRewardSetName] : undefined;
  if (info === undefined) throw new InvalidArgumentError({ argument: 'rewardSet', expected: GROUNDED_REWARD_SETS.join(' | '), value: rewardSet });
  return info;
}

function finish(rewardSet: GroundedRewardSetName, terms: Record<string, number>, rest: Omit<GroundedReward, 'rewardSet' | 'reward' | 'terms'>): GroundedReward {
  const rounded = Object.fromEntries(Object.entries(terms).map(([name, value]) => [name, round(value)]));
  return { rewardSet, reward: round(Object.values(rounded).reduce((sum, value) => sum + value, 0)), terms: rounded, ...rest };
}

/**
 * Scores a grounded episode with one of the reward sets:
 * - `vigorl-single-turn`: `0.5·acc + 0.5·format·grounded`
 * - `vigorl-multi-turn`: `0.6·acc + 0.4·format + 0.2·(distinct crop points − 1)`
 * - `deepeyes`: `0.8·acc + 0.2·format + 1.2·[tool used ∧ correct]`
 * Accuracy is the checker's verdict on the last response's `<answer>` (read even when the format
 * is wrong). Points off the image ground nothing and crop nothing.
 *
 * @example
 * scoreGroundedEpisode('vigorl-single-turn', { responses: ['<think>The sign at (120, 45).</think><answer>B</answer>'], imageSize, target, checker })
 * // { reward: 1, terms: { accuracy: 0.5, groundedFormat: 0.5 }, … }
 */
export function scoreGroundedEpisode(rewardSet: GroundedRewardSetName | GroundedRewardSet, input: GroundedEpisodeInput): GroundedReward {
  const set = resolveSet(rewardSet);
  const { responses, imageSize, target, answerType, checker, maxCrops = 4, toolNames = [SEARCH_COORDINATE], minDistance = DISTINCT_POINT_DISTANCE } = input;
  if (!Array.isArray(responses)) throw new InvalidArgumentError({ argument: 'responses', expected: 'an array of response strings', value: responses });
  const last = responses.length > 0 ? String(responses[responses.length - 1]) : '';
  const problems: string[] = [];

  if (set.mode === 'single-turn') {
    const response = parseGroundedResponse(last, answerType === undefined ? {} : { answerType });
    const points = groundedPoints(response.think ?? '', imageSize);
    const format = response.wellFormed && responses.length === 1 ? 1 : 0;
    const grounded = points.length > 0 ? 1 : 0;
    if (responses.length !== 1) problems.push(`expected one response, received ${responses.length}`);
    if (!response.wellFormed) problems.push(response.error ?? 'the format is wrong');
    if (grounded === 0) {
      problems.push(response.points.length > 0 ? `no point of <think> lies on the ${imageSize.width} × ${imageSize.height} image` : 'no point (x, y) in <think>');
    }
    const accuracy = response.answer !== undefined && checker(response.answer, target).correct ? 1 : 0;
    const rest = { signals: { accuracy, format, grounded }, points, problems, ...(response.answer === undefined ? {} : { answer: response.answer }) };
    return finish(set.name, { accuracy: 0.5 * accuracy, groundedFormat: 0.5 * format * grounded }, rest);
  }

  const turns = responses.map((response) => parseGroundedTurn(String(response), { toolNames, ...(answerType === undefined ? {} : { answerType }) }));
  let format = turns.length > 0 ? 1 : 0;
  turns.forEach((turn, index) => {
    const final = index === turns.length - 1;
    if (!turn.wellFormed) {
      format = 0;
      problems.push(`turn ${index + 1}: ${turn.error ?? 'not well formed'}`);
    } else if (final !== (turn.kind === 'answer')) {
      format = 0;
      problems.push(final ? `turn ${index + 1}: expected the last turn to answer, found a tool call` : `turn ${index + 1}: expected a tool call before the last turn, found an answer`);
    }
  });
  if (turns.length === 0) problems.push('expected at least one response');
  const crops =
    input.crops?.slice() ??
    turns
      .flatMap((turn) => (turn.kind === 'tool' && turn.point !== undefined && turn.call !== undefined && toolNames.includes(turn.call.name) && pointInImage(turn.point, imageSize) ? [turn.point] : []))
      .slice(0, maxCrops);
  const answer = readAnswer(last);
  const accuracy = answer !== undefined && turns.at(-1)?.kind === 'answer' && checker(answer, target).correct ? 1 : 0;
  const distinct = distinctPoints(crops, minDistance).length;
  const signals: GroundedSignals = { accuracy, format, crops: crops.length, distinctCrops: distinct };
  const rest = { points: crops, problems, ...(answer === undefined ? {} : { answer }) };
  if (set.name === 'vigorl-multi-turn') {
    return finish(set.name, { accuracy: 0.6 * accuracy, format: 0.4 * format, cropBonus: 0.2 * Math.max(0, distinct - 1) }, { ...rest, signals });
  }
  const toolUsed = crops.length > 0 ? 1 : 0;
  return finish(set.name, { accuracy: 0.8 * accuracy, format: 0.2 * format, toolBonus: 1.2 * toolUsed * accuracy }, { ...rest, signals: { ...signals, toolUsed } });
}

/** The reward set's description, by name. */
export function groundedRewardSet(name: GroundedRewardSetName): GroundedRewardSet {
  return resolveSet(name);
}
