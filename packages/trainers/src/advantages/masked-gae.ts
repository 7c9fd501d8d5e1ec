import {
  at,
  checkBatch,
  checkRewardsRead,
  checkSequence,
  checkUnitInterval,
  type NumericArray,
  type TokenSequence,
} from './validate';
import { maskedWhitenBatch } from './whiten';

/** Per-token advantages and returns; both are 0 wherever lossMask is 0. */
export interface GaeResult {
  advantages: Float64Array;
  returns: Float64Array;
}

/** Per-sequence advantages and returns of a batch. */
export interface GaeBatchResult {
  advantages: Float64Array[];
  returns: Float64Array[];
}

/**
 * One sequence for computeMaskedGae: its tokens' rewards, values and mask, γ, λ, and whether to
 * whiten within it.
 */
export interface MaskedGaeInput extends TokenSequence {
  /** Discount γ in [0, 1]. */
  gamma: number;
  /** GAE λ in [0, 1]. */
  lambda: number;
  /**
   * Whiten the advantages over this sequence's masked tokens (default false). VAGEN whitens over
   * the whole batch: use {@link computeMaskedGaeBatch} for that. Returns are never whitened.
   */
  whiten?: boolean;
}

/** A batch for computeMaskedGaeBatch: the sequences, γ, λ, and whether to whiten over the batch. */
export interface MaskedGaeBatchInput {
  sequences: readonly TokenSequence[];
  gamma: number;
  lambda: number;
  /** Whiten the advantages over the masked tokens of the whole batch, as VAGEN does (default true). */
  whiten?: boolean;
}

/**
 * The masked GAE recursion over the positions L (in order), writing into adv / ret.
 * Vn comes from the next position in L (0 after the last one), so skipped tokens never enter.
 */
export function maskedGaePass(
  rewards: NumericArray,
  values: NumericArray,
  positions: readonly number[],
  gamma: number,
  lambda: number,
  advantages: Float64Array,
  returns: Float64Array,
): void {
  let gae = 0;
  for (let i = positions.length - 1; i >= 0; i--) {
    const p = positions[i] as number;
    const next = positions[i + 1];
    const nextValue = next === undefined ? 0 : at(values, next);
    const delta = at(rewards, p) + gamma * nextValue - at(values, p);
    gae = delta + gamma * lambda * gae;
    advantages[p] = gae;
    returns[p] = gae + at(values, p);
  }
}

function maskedGaeRaw(sequence: TokenSequence, gamma: number, lambda: number, prefix: string): GaeResult {
  const positions = checkSequence(sequence, prefix);
  const { rewards, values, lossMask } = sequence;
  checkRewardsRead(rewards, (i) => lossMask[i] === 1, `${prefix}rewards`, 'a token with lossMask 1');
  const advantages = new Float64Array(rewards.length);
  const returns = new Float64Array(rewards.length);
  maskedGaePass(rewards, values, positions, gamma, lambda, advantages, returns);
  return { advantages, returns };
}

/**
 * Masked GAE (VAGEN-Base). With L the positions where lossMask = 1, in order:
 *
 *     A = 0; for i = |L|−1 … 0: p = L[i]; Vn = (i < |L|−1) ? V[L[i+1]] : 0
 *       δ = r[p] + γ·Vn − V[p];  A = δ + γ·λ·A;  adv[p] = A;  ret[p] = A + V[p]
 *
 * Observation tokens are skipped: the next value comes from the next generated token.
 * Positions with lossMask 0 get advantage 0 and return 0. A non-zero reward on such a position
 * would never be read, so it is refused.
 */
export function computeMaskedGae(input: MaskedGaeInput): GaeResult {
  const gamma = checkUnitInterval(input.gamma, 'gamma');
  const lambda = checkUnitInterval(input.lambda, 'lambda');
  const result = maskedGaeRaw(input, gamma, lambda, '');
  if (input.whiten === true) {
    result.advantages = maskedWhitenBatch([result.advantages], [input.lossMask])[0] as Float64Array;
  }
  return result;
}

/**
 * {@link computeMaskedGae} on each sequence of a batch, then (by default) whitening of the
 * advantages over the masked tokens of the whole batch — VAGEN's
 * `compute_gae_advantage_return_with_loss_mask` followed by `masked_whiten(advantages, loss_mask)`.
 */
export function computeMaskedGaeBatch(input: MaskedGaeBatchInput): GaeBatchResult {
  const gamma = checkUnitInterval(input.gamma, 'gamma');
  const lambda = checkUnitInterval(input.lambda, 'lambda');
  const sequences = checkBatch<TokenSequence>(input.sequences);
  const results = sequences.map((sequence, b) => maskedGaeRaw(sequence, gamma, lambda, `sequences[${b}].`));
  const returns = results.map((r) => r.returns);
  let advantages = results.map((r) => r.advantages);
  if (input.whiten ?? true) {
    advantages = maskedWhitenBatch(
      advantages,
      sequences.map((s) => s.lossMask),
    );
  }
  return { advantages, returns };
}
