/** The reward sets a vision-QA env can give. */
export const REWARD_SETS = ['vista', 'vista-r1'] as const;
/** One of {@link REWARD_SETS}. */
export type RewardSet = (typeof REWARD_SETS)[number];

/** VISTA-Gym's per-turn rewards (REFERENCE §3, Vision QA). */
export interface VistaRewards {
  /** A correct answer (default 1). */
  correct: number;
  /** A wrong answer (default 0); with attempts left, the env reflects and the episode goes on. */
  wrong: number;
  /** No answer could be read and a retry is allowed (default −0.05). */
  formatErrorRetry: number;
  /** No answer could be read and no retry is allowed (`retryOnFormatError: false`; default −0.1). */
  formatError: number;
  /** The last attempt gave no answer: the episode is cut off without one (default −0.1). */
  truncated: number;
}

/** VISTA-Gym's reward values: 1 correct, 0 wrong, −0.05 a format error that may be retried, −0.1 one that ends the episode or a truncation. */
export const DEFAULT_VISTA_REWARDS: VistaRewards = { correct: 1, wrong: 0, formatErrorRetry: -0.05, formatError: -0.1, truncated: -0.1 };

/** One turn, as the VISTA-R1 reward sees it. */
export interface TurnRecord {
  wellFormed: boolean;
  repetitionPenalty: number;
  correct: boolean;
}

/**
 * The VISTA-R1 paper's trajectory reward `R = R_rep + R_format + R_correct`, given at the end of
 * the episode: `R_format = (1[all turns well formed] − 0.5)·2` (±1), `R_rep` the worst turn's
 * repetition penalty, `R_correct` 1 for a correct final answer in a clean trajectory (all turns
 * well formed, no repetition), else 0.
 */
export function vistaR1Terms(turns: readonly TurnRecord[]): { repetition: number; format: number; correct: number } {
  const allWellFormed = turns.length > 0 && turns.every((turn) => turn.wellFormed);
  const repetition = turns.reduce((worst, turn) => Math.min(worst, turn.repetitionPenalty), 0);
  const clean = allWellFormed && repetition === 0;
  const correct = clean && turns.at(-1)?.correct === true ? 1 : 0;
  return { repetition, format: allWellFormed ? 1 : -1, correct };
}
