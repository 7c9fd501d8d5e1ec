// Advantage estimators (VAGEN / verl semantics) over plain arrays. See docs/advantages.md.
export type { NumericArray, TokenSequence } from './validate';
export { maskedMoments, maskedWhiten, maskedWhitenBatch } from './whiten';
export type { MaskedMoments, MaskedWhitenOptions } from './whiten';
export { computeMaskedGae, computeMaskedGaeBatch } from './masked-gae';
export type { GaeBatchResult, GaeResult, MaskedGaeBatchInput, MaskedGaeInput } from './masked-gae';
export { endOfTurnFromLossMask, endOfTurnFromMask } from './turns';
export type { TurnSequence } from './turns';
export { computeBiLevelGae, computeBiLevelGaeBatch, computeTurnWiseGae, computeTurnWiseGaeBatch } from './turn-gae';
export type {
  BiLevelGaeBatchInput,
  BiLevelGaeInput,
  BiLevelGaeParameters,
  TurnWiseGaeBatchInput,
  TurnWiseGaeBatchResult,
  TurnWiseGaeInput,
  TurnWiseGaeParameters,
  TurnWiseGaeResult,
  TurnWiseWhitenOver,
} from './turn-gae';
export { broadcastOverMask, computeGrpoAdvantages, computeMaskedGrpo } from './grpo';
export type { GroupId, GrpoInput, MaskedGrpoInput, MaskedGrpoResult } from './grpo';
export { computeGigpoStepAdvantages } from './gigpo';
export type { GigpoStepInput, GigpoStepResult, GigpoTrajectory } from './gigpo';
