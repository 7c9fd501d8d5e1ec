import type { GaeBatchResult, GaeResult } from './masked-gae';
import { resolveEndOfTurn, type TurnSequence } from './turns';
import { at, checkBatch, checkRewardsRead, checkSequence, checkUnitInterval, fail, type NumericArray } from './validate';
import { maskedWhitenBatch } from './whiten';

/** Discounts and λ of bi-level GAE. */
export interface BiLevelGaeParameters {
  /** γ_turn: discount between turns (VAGEN's `high_level_gamma`, 0.95–0.99 in its runs). */
  gammaTurn: number;
  /** γ_token: discount between tokens inside a turn (1.0 in VAGEN's runs). */
  gammaToken: number;
  /**
   * λ shared by both passes, as VAGEN's code does. The paper's Algorithm 2 keeps λ_turn and
   * λ_token apart: give lambdaTurn / lambdaToken for that (each falls back to lambda).
   */
  lambda?: number;
  lambdaTurn?: number;
  lambdaToken?: number;
}

/**
 * One sequence for computeBiLevelGae: its turns, the discounts and λ, and whether to whiten within
 * it.
 */
export interface BiLevelGaeInput extends TurnSequence, BiLevelGaeParameters {
  /** Whiten the advantages over this sequence's masked tokens (default false; the batch variant whitens over the batch). */
  whiten?: boolean;
}

/**
 * A batch for computeBiLevelGaeBatch: the sequences, the discounts and λ, and whether to whiten
 * over the batch.
 */
export interface BiLevelGaeBatchInput extends BiLevelGaeParameters {
  sequences: readonly TurnSequence[];
  /** Whiten the advantages over the masked tokens of the whole batch, as VAGEN does (default true). */
  whiten?: boolean;
}

/** Which tokens turn-wise whitening takes its mean and variance over. */
export type TurnWiseWhitenOver = 'endOfTurn' | 'lossMask';

/**
 * The turn-level discount and λ of turn-wise GAE, and which tokens whitening takes its statistics
 * over.
 */
export interface TurnWiseGaeParameters {
  /** γ_turn: discount between turns. */
  gammaTurn: number;
  /** λ of the turn-level GAE. */
  lambda: number;
  /**
   * Statistics for whitening: over the end-of-turn tokens, one entry per turn (default; what
   * VAGEN's code does, `masked_whiten(advantages, reward_mask)`), or over every masked token
   * (a turn then weighs as many times as it has tokens).
   */
  whitenOver?: TurnWiseWhitenOver;
}

/**
 * One sequence for computeTurnWiseGae: its turns, the parameters, and whether to whiten within it.
 */
export interface TurnWiseGaeInput extends TurnSequence, TurnWiseGaeParameters {
  /** Whiten the turn advantages within this sequence (default false; the batch variant whitens over the batch). */
  whiten?: boolean;
}

/**
 * A batch for computeTurnWiseGaeBatch: the sequences, the parameters, and whether to whiten over
 * the batch.
 */
export interface TurnWiseGaeBatchInput extends TurnWiseGaeParameters {
  sequences: readonly TurnSequence[];
  /** Whiten over the whole batch, as VAGEN does (default true). */
  whiten?: boolean;
}

/** Turn-wise GAE result: the critic trains only where valueMask is 1 (the end-of-turn tokens). */
export interface TurnWiseGaeResult extends GaeResult {
  /** 1 on end-of-turn tokens, where returns are set; 0 elsewhere. */
  valueMask: Float64Array;
}

/**
 * computeTurnWiseGaeBatch's advantages and returns per sequence, with each sequence's value mask
 * (its end-of-turn tokens).
 */
export interface TurnWiseGaeBatchResult extends GaeBatchResult {
  valueMask: Float64Array[];
}

interface Lambdas {
  turn: number;
  token: number;
}

function resolveLambdas(parameters: BiLevelGaeParameters): Lambdas {
  const shared = parameters.lambda === undefined ? undefined : checkUnitInterval(parameters.lambda, 'lambda');
  const turn = parameters.lambdaTurn === undefined ? shared : checkUnitInterval(parameters.lambdaTurn, 'lambdaTurn');
  const token = parameters.lambdaToken === undefined ? shared : checkUnitInterval(parameters.lambdaToken, 'lambdaToken');
  if (turn === undefined || token === undefined) {
    fail(
      turn === undefined ? 'lambdaTurn' : 'lambdaToken',
      'a number in [0, 1] (give lambda, shared by both passes, or both lambdaTurn and lambdaToken)',
      undefined,
    );
  }
  return { turn, token };
}

/**
 * The turn-level pass over E with γ_turn: returns the turn advantages A_t (one per turn), from the
 * turn rewards R_t (bi-level: r[E[t]]; turn-wise: the sum over the turn's tokens).
 *   A = 0; for t = T−1 … 0: Vn = (t < T−1) ? V[E[t+1]] : 0;  δ = R_t + γ_turn·Vn − V[E[t]];  A = δ + γ_turn·λ·A
 */
function turnPass(turnRewards: NumericArray, values: NumericArray, ends: readonly number[], gammaTurn: number, lambda: number): Float64Array {
  const turnAdvantages = new Float64Array(ends.length);
  let gae = 0;
  for (let t = ends.length - 1; t >= 0; t--) {
    const e = ends[t] as number;
    const next = ends[t + 1];
    const nextValue = next === undefined ? 0 : at(values, next);
    const delta = at(turnRewards, t) + gammaTurn * nextValue - at(values, e);
    gae = delta + gammaTurn * lambda * gae;
    turnAdvantages[t] = gae;
  }
  return turnAdvantages;
}

function biLevelRaw(
  sequence: TurnSequence,
  gammaTurn: number,
  gammaToken: number,
  lambdas: Lambdas,
  prefix: string,
): GaeResult {
  const masked = checkSequence(sequence, prefix);
  const ends = resolveEndOfTurn(sequence, masked, prefix);
  const { rewards, values, lossMask } = sequence;
  checkRewardsRead(rewards, (i) => lossMask[i] === 1, `${prefix}rewards`, 'a token with lossMask 1');

  // Turn level: r'[E[t]] = A_t + V[E[t]]; every other token keeps its own reward.
  const turnAdvantages = turnPass(
    ends.map((e) => at(rewards, e)),
    values,
    ends,
    gammaTurn,
    lambdas.turn,
  );
  const updated = Float64Array.from(rewards);
  const isEnd = new Uint8Array(rewards.length);
  ends.forEach((e, t) => {
    updated[e] = (turnAdvantages[t] as number) + at(values, e);
    isEnd[e] = 1;
  });

  // Token level: each turn's last token starts afresh (Vn = 0, A = 0), so adv[E[t]] = A_t.
  const advantages = new Float64Array(rewards.length);
  const returns = new Float64Array(rewards.length);
  let gae = 0;
  for (let i = masked.length - 1; i >= 0; i--) {
    const p = masked[i] as number;
    let nextValue: number;
    if (isEnd[p] === 1) {
      nextValue = 0;
      gae = 0;
    } else {
      // Defined: the last masked token is an end of turn (checked by resolveEndOfTurn).
      nextValue = at(values, masked[i + 1] as number);
    }
    const delta = at(updated, p) + gammaToken * nextValue - at(values, p);
    gae = delta + gammaToken * lambdas.token * gae;
    advantages[p] = gae;
    returns[p] = gae + at(values, p);
  }
  return { advantages, returns };
}

/**
 * Bi-level GAE (VAGEN-Full): a turn-level GAE over the end-of-turn tokens E with γ_turn, whose
 * returns replace the rewards at E, then a token-level GAE over the masked tokens with γ_token
 * in which each turn's last token starts afresh:
 *
 *     # turn level
 *     A = 0; for t = T−1 … 0: Vn = (t < T−1) ? V[E[t+1]] : 0
 *       δ = r[E[t]] + γ_turn·Vn − V[E[t]];  A = δ + γ_turn·λ_turn·A;  r'[E[t]] = A + V[E[t]]
 *     # token level
 *     A = 0; for i = |L|−1 … 0: p = L[i]
 *       if p ∈ E: Vn = 0, A = 0 else: Vn = V[L[i+1]]
 *       δ = r'[p] + γ_token·Vn − V[p];  A = δ + γ_token·λ_token·A;  adv[p] = A;  ret[p] = A + V[p]
 *
 * λ_turn = λ_token = lambda unless lambdaTurn / lambdaToken are given.
 */
export function computeBiLevelGae(input: BiLevelGaeInput): GaeResult {
  const gammaTurn = checkUnitInterval(input.gammaTurn, 'gammaTurn');
  const gammaToken = checkUnitInterval(input.gammaToken, 'gammaToken');
  const lambdas = resolveLambdas(input);
  const result = biLevelRaw(input, gammaTurn, gammaToken, lambdas, '');
  if (input.whiten === true) {
    result.advantages = maskedWhitenBatch([result.advantages], [input.lossMask])[0] as Float64Array;
  }
  return result;
}

/** {@link computeBiLevelGae} on each sequence, then (by default) whitening over the masked tokens of the whole batch. */
export function computeBiLevelGaeBatch(input: BiLevelGaeBatchInput): GaeBatchResult {
  const gammaTurn = checkUnitInterval(input.gammaTurn, 'gammaTurn');
  const gammaToken = checkUnitInterval(input.gammaToken, 'gammaToken');
  const lambdas = resolveLambdas(input);
  const sequences = checkBatch<TurnSequence>(input.sequences);
  const results = sequences.map((s, b) => biLevelRaw(s, gammaTurn, gammaToken, lambdas, `sequences[${b}].`));
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

interface TurnWiseRaw {
  ends: number[];
  /** Token index → turn index, −1 for unmasked tokens. */
  turnOf: Int32Array;
  turnAdvantages: Float64Array;
  returns: Float64Array;
  valueMask: Float64Array;
}

function turnWiseRaw(sequence: TurnSequence, gammaTurn: number, lambda: number, prefix: string): TurnWiseRaw {
  const masked = checkSequence(sequence, prefix);
  const ends = resolveEndOfTurn(sequence, masked, prefix);
  const { rewards, values, lossMask } = sequence;
  checkRewardsRead(rewards, (i) => lossMask[i] === 1, `${prefix}rewards`, 'a token with lossMask 1 (a response token of a turn)');
  // Turn t owns the masked tokens p with E[t−1] < p ≤ E[t]; its reward is the sum of theirs (the
  // end-of-turn reward plus per-token rewards such as a KL penalty applied as a reward).
  const turnOf = new Int32Array(rewards.length).fill(-1);
  const turnRewards = new Float64Array(ends.length);
  let turn = 0;
  for (const p of masked) {
    while ((ends[turn] as number) < p) turn += 1;
    turnOf[p] = turn;
    turnRewards[turn] = (turnRewards[turn] as number) + at(rewards, p);
  }
  const turnAdvantages = turnPass(turnRewards, values, ends, gammaTurn, lambda);
  const returns = new Float64Array(rewards.length);
  const valueMask = new Float64Array(rewards.length);
  ends.forEach((e, t) => {
    returns[e] = (turnAdvantages[t] as number) + at(values, e);
    valueMask[e] = 1;
  });
  return { ends, turnOf, turnAdvantages, returns, valueMask };
}

function broadcastTurns(raw: TurnWiseRaw, turnValues: Float64Array): Float64Array {
  const out = new Float64Array(raw.turnOf.length);
  raw.turnOf.forEach((t, p) => {
    if (t >= 0) out[p] = turnValues[t] as number;
  });
  return out;
}

function whitenTurnWise(raws: readonly TurnWiseRaw[], sequences: readonly TurnSequence[], over: TurnWiseWhitenOver): Float64Array[] {
  if (over === 'endOfTurn') {
    const whitened = maskedWhitenBatch(
      raws.map((r) => r.turnAdvantages),
      raws.map((r) => new Float64Array(r.turnAdvantages.length).fill(1)),
    );
    return raws.map((r, b) => broadcastTurns(r, whitened[b] as Float64Array));
  }
  return maskedWhitenBatch(
    raws.map((r) => broadcastTurns(r, r.turnAdvantages)),
    sequences.map((s) => s.lossMask),
  );
}

function checkWhitenOver(value: unknown): TurnWiseWhitenOver {
  if (value === undefined) return 'endOfTurn';
  if (value !== 'endOfTurn' && value !== 'lossMask') fail('whitenOver', "'endOfTurn' or 'lossMask'", value);
  return value;
}

/**
 * Turn-wise GAE: only the turn-level pass of bi-level GAE (with γ_turn and λ over E), where turn
 * t's reward is the sum of the rewards of its masked tokens (E[t−1] < p ≤ E[t]): the end-of-turn
 * reward plus any per-token rewards, such as a KL penalty applied as a reward (REFERENCE §6). Every masked token of turn t gets adv = A_t. Returns are set at E
 * only (ret[E[t]] = A_t + V[E[t]]) and `valueMask` marks them: the critic trains at E only.
 * Rewards on unmasked tokens (observations) are refused.
 */
export function computeTurnWiseGae(input: TurnWiseGaeInput): TurnWiseGaeResult {
  const gammaTurn = checkUnitInterval(input.gammaTurn, 'gammaTurn');
  const lambda = checkUnitInterval(input.lambda, 'lambda');
  const over = checkWhitenOver(input.whitenOver);
  const raw = turnWiseRaw(input, gammaTurn, lambda, '');
  const advantages = input.whiten === true ? (whitenTurnWise([raw], [input], over)[0] as Float64Array) : broadcastTurns(raw, raw.turnAdvantages);
  return { advantages, returns: raw.returns, valueMask: raw.valueMask };
}

/** {@link computeTurnWiseGae} on each sequence, then (by default) whitening over the whole batch. */
export function computeTurnWiseGaeBatch(input: TurnWiseGaeBatchInput): TurnWiseGaeBatchResult {
  const gammaTurn = checkUnitInterval(input.gammaTurn, 'gammaTurn');
  const lambda = checkUnitInterval(input.lambda, 'lambda');
  const over = checkWhitenOver(input.whitenOver);
  const sequences = checkBatch<TurnSequence>(input.sequences);
  const raws = sequences.map((s, b) => turnWiseRaw(s, gammaTurn, lambda, `sequences[${b}].`));
  const advantages = (input.whiten ?? true) ? whitenTurnWise(raws, sequences, over) : raws.map((r) => broadcastTurns(r, r.turnAdvantages));
  return { advantages, returns: raws.map((r) => r.returns), valueMask: raws.map((r) => r.valueMask) };
}
