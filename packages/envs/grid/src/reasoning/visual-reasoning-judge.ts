import type { GridSymbolicState } from './symbolic-state';

/** Which part of a response a judge scores: `<observation>` (state before) or `<prediction>` (after). */
export type VisualReasoningKind = 'grounding' | 'worldmodel';

/**
 * Scores a description against the env's true state, in [0, 1]. The default is the LLM-free
 * `relationF1`; plug in an LLM judge (as VAGEN does) with this signature.
 */
export type VisualReasoningJudge = (kind: VisualReasoningKind, text: string, state: GridSymbolicState) => Promise<number>;
