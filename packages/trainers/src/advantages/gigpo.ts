import { at, checkFiniteArray, fail, type NumericArray } from './validate';
import type { GroupId } from './grpo';

/** One trajectory as GiGPO's step level reads it: its group, each turn's reward and anchor state. */
export interface GigpoTrajectory {
  /** The episode group (the seed it was played from, GRPO's group). */
  groupId: GroupId;
  /** Each turn's reward r_t. */
  stepRewards: NumericArray;
  /** Each turn's anchor state: turns of the same group with the same anchor form a step group. */
  anchors: readonly string[];
}

/**
 * The trajectories computeGigpoStepAdvantages groups by anchor state (each with its group id, turn
 * rewards and anchors), the discount of their returns, and the normalisation.
 */
export interface GigpoStepInput {
  trajectories: readonly GigpoTrajectory[];
  /** γ of the discounted return R_t = Σ_k γ^k r_{t+k} (default 0.95, GiGPO's). */
  discount?: number;
  /** Divide by the step group's std (default true); false: R_t − mean (verl-agent's `mean_norm`). */
  normalizeStd?: boolean;
  /** Added to the std (default 1e-6). */
  epsilon?: number;
}

/**
 * computeGigpoStepAdvantages' result: each turn's step-level advantage and discounted return, and
 * the step groups' sizes and how many of them vary.
 */
export interface GigpoStepResult {
  /** Per trajectory, per turn: the step-level advantage A^S. */
  stepAdvantages: Float64Array[];
  /** Per trajectory, per turn: the discounted return R_t. */
  stepReturns: Float64Array[];
  /** The size of every step group, in the order the groups were first met. */
  stepGroupSizes: number[];
  /** Step groups of more than one turn whose returns differ (they carry the step-level signal). */
  variedStepGroups: number;
}

/**
 * GiGPO's step-level advantages (Feng et al. 2025, "Group-in-Group Policy Optimization", Eq. 5–7):
 * each turn's discounted return R_t, grouped with the turns of the same episode group that acted on
 * the same anchor state (an identical observation), and normalised within that step group:
 * A^S = (R_t − mean) / (std + ε) with the unbiased std, or R_t − mean. A turn alone in its step
 * group gets 0 (its mean is itself). The trainer adds ω · A^S to the episode-level GRPO advantage.
 */
export function computeGigpoStepAdvantages(input: GigpoStepInput): GigpoStepResult {
  const trajectories: readonly GigpoTrajectory[] = input.trajectories;
  if (!Array.isArray(trajectories as unknown)) fail('trajectories', 'an array of { groupId, stepRewards, anchors }', trajectories);
  const discount = input.discount ?? 0.95;
  if (typeof discount !== 'number' || !(discount >= 0 && discount <= 1)) fail('discount', 'a number in [0, 1]', input.discount);
  const epsilon = input.epsilon ?? 1e-6;
  if (typeof epsilon !== 'number' || !Number.isFinite(epsilon) || epsilon < 0) fail('epsilon', 'a finite number ≥ 0', input.epsilon);
  const normalizeStd = input.normalizeStd ?? true;

  const stepReturns = trajectories.map((trajectory, b) => {
    if (typeof trajectory !== 'object' || trajectory === null) fail(`trajectories[${b}]`, 'an object with groupId, stepRewards and anchors', trajectory);
    const rewards = checkFiniteArray(trajectory.stepRewards, `trajectories[${b}].stepRewards`);
    const anchors: unknown = trajectory.anchors;
    if (!Array.isArray(anchors) || anchors.length !== rewards.length || anchors.some((anchor) => typeof anchor !== 'string')) {
      fail(`trajectories[${b}].anchors`, `one string per turn (${rewards.length})`, trajectory.anchors);
    }
    if (typeof trajectory.groupId !== 'string' && !(typeof trajectory.groupId === 'number' && Number.isFinite(trajectory.groupId))) {
      fail(`trajectories[${b}].groupId`, 'a string or a finite number', trajectory.groupId);
    }
    const returns = new Float64Array(rewards.length);
    let running = 0;
    for (let t = rewards.length - 1; t >= 0; t--) {
      running = at(rewards, t) + discount * running;
      returns[t] = running;
    }
    return returns;
  });

  // Step groups: (episode group, anchor) → the turns that acted there, in batch order.
  const groups = new Map<string, [number, number][]>();
  trajectories.forEach((trajectory, b) => {
    trajectory.anchors.forEach((anchor, t) => {
      const key = JSON.stringify([trajectory.groupId, anchor]);
      const members = groups.get(key);
      if (members === undefined) groups.set(key, [[b, t]]);
      else members.push([b, t]);
    });
  });

  const stepAdvantages = stepReturns.map((returns) => new Float64Array(returns.length));
  let variedStepGroups = 0;
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const values = members.map(([b, t]) => stepReturns[b]![t]!);
    // Equal returns carry no signal: exactly 0, not a rounding error divided by ε.
    if (values.every((value) => value === values[0])) continue;
    variedStepGroups++;
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const std = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
    members.forEach(([b, t], index) => {
      const centred = values[index]! - mean;
      stepAdvantages[b]![t] = normalizeStd ? centred / (std + epsilon) : centred;
    });
  }
  return { stepAdvantages, stepReturns, stepGroupSizes: [...groups.values()].map((members) => members.length), variedStepGroups };
}
