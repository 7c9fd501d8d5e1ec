import { at, checkBatch, checkFiniteArray, checkMask, checkSameLength, fail, type NumericArray } from './validate';

/** Identifies the group (prompt / initial state) a trajectory was sampled for. */
export type GroupId = string | number;

/**
 * The scores and group ids computeGrpoAdvantages normalises within each group, with its std and ε
 * settings.
 */
export interface GrpoInput {
  /** One score per trajectory (the sum of its rewards). */
  scores: NumericArray;
  /** One group id per trajectory. */
  groupIds: readonly GroupId[];
  /** Divide by the group's std (default true); false gives score − mean (Dr. GRPO style). */
  normalizeStd?: boolean;
  /** Added to the std (default 1e-6). */
  epsilon?: number;
}

/**
 * Per trajectory its token rewards and loss mask, with the group ids and normalisation settings of
 * computeMaskedGrpo.
 */
export interface MaskedGrpoInput {
  /** Per trajectory: its token rewards and loss mask. */
  sequences: readonly { rewards: NumericArray; lossMask: NumericArray }[];
  groupIds: readonly GroupId[];
  normalizeStd?: boolean;
  epsilon?: number;
}

/**
 * computeMaskedGrpo's result: each trajectory's advantage on its loss tokens, its score, and its
 * advantage as one number.
 */
export interface MaskedGrpoResult {
  /** Per trajectory: its advantage on every token with lossMask 1, 0 elsewhere. */
  advantages: Float64Array[];
  /** Per trajectory: the score (sum of its rewards). */
  scores: Float64Array;
  /** Per trajectory: its advantage (before broadcasting). */
  trajectoryAdvantages: Float64Array;
}

function checkGroupIds(groupIds: unknown, count: number): readonly GroupId[] {
  if (!Array.isArray(groupIds)) fail('groupIds', 'an array of group ids (strings or numbers)', groupIds);
  if (groupIds.length !== count) fail('groupIds', `one group id per trajectory (${count})`, `${groupIds.length} ids`);
  groupIds.forEach((id, i) => {
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
      fail(`groupIds[${i}]`, 'a string or a finite number', id);
    }
  });
  return groupIds as readonly GroupId[];
}

/**
 * GRPO advantages, one per trajectory: A_i = (score_i − mean_g) / (std_g + ε) over the
 * trajectories of the same group g, with the unbiased (n − 1) std. A group of one has mean 0 and
 * std 1 (verl / VAGEN), so its advantage is score / (1 + ε). A group whose scores are all equal
 * gets 0. With normalizeStd false: A_i = score_i − mean_g.
 */
export function computeGrpoAdvantages(input: GrpoInput): Float64Array {
  const scores = checkFiniteArray(input.scores, 'scores');
  const groupIds = checkGroupIds(input.groupIds, scores.length);
  const normalizeStd = input.normalizeStd ?? true;
  let epsilon = 1e-6;
  if (input.epsilon !== undefined) {
    if (typeof input.epsilon !== 'number' || !Number.isFinite(input.epsilon) || input.epsilon < 0) {
      fail('epsilon', 'a finite number ≥ 0', input.epsilon);
    }
    epsilon = input.epsilon;
  }

  const members = new Map<GroupId, number[]>();
  groupIds.forEach((id, i) => {
    const list = members.get(id);
    if (list === undefined) members.set(id, [i]);
    else list.push(i);
  });

  const advantages = new Float64Array(scores.length);
  for (const indices of members.values()) {
    let mean = 0;
    let std = 1;
    if (indices.length > 1) {
      mean = indices.reduce((sum, i) => sum + at(scores, i), 0) / indices.length;
      const squares = indices.reduce((sum, i) => sum + (at(scores, i) - mean) ** 2, 0);
      std = Math.sqrt(squares / (indices.length - 1));
    }
    for (const i of indices) {
      const centred = at(scores, i) - mean;
      advantages[i] = normalizeStd ? centred / (std + epsilon) : centred;
    }
  }
  return advantages;
}

/** A trajectory-level advantage on every token where lossMask is 1; 0 elsewhere. */
export function broadcastOverMask(advantage: number, lossMask: NumericArray): Float64Array {
  if (typeof advantage !== 'number' || !Number.isFinite(advantage)) fail('advantage', 'a finite number', advantage);
  checkMask(lossMask, 'lossMask');
  const out = new Float64Array(lossMask.length);
  for (let i = 0; i < lossMask.length; i++) if (lossMask[i] === 1) out[i] = advantage;
  return out;
}

/**
 * Masked GRPO over a batch: score = the sum of each trajectory's rewards, {@link computeGrpoAdvantages}
 * within groups, broadcast over each loss mask. No whitening.
 */
export function computeMaskedGrpo(input: MaskedGrpoInput): MaskedGrpoResult {
  const sequences = checkBatch<{ rewards: NumericArray; lossMask: NumericArray }>(input.sequences);
  const scores = new Float64Array(sequences.length);
  sequences.forEach((sequence, b) => {
    if (typeof sequence !== 'object' || sequence === null) fail(`sequences[${b}]`, 'an object with rewards and lossMask', sequence);
    const rewards = checkFiniteArray(sequence.rewards, `sequences[${b}].rewards`);
    const lossMask = checkMask(sequence.lossMask, `sequences[${b}].lossMask`);
    checkSameLength(rewards.length, lossMask, `sequences[${b}].lossMask`, `sequences[${b}].rewards`);
    let score = 0;
    for (let i = 0; i < rewards.length; i++) score += at(rewards, i);
    scores[b] = score;
  });
  const grpoInput: GrpoInput = { scores, groupIds: input.groupIds };
  if (input.normalizeStd !== undefined) grpoInput.normalizeStd = input.normalizeStd;
  if (input.epsilon !== undefined) grpoInput.epsilon = input.epsilon;
  const trajectoryAdvantages = computeGrpoAdvantages(grpoInput);
  const advantages = sequences.map((s, b) => broadcastOverMask(trajectoryAdvantages[b] as number, s.lossMask));
  return { advantages, scores, trajectoryAdvantages };
}

