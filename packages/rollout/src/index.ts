// The rollout manager.
export { createRolloutManager, rolloutMetrics, runRollouts } from './run-rollouts';
export type { RolloutManager, RolloutRequest, RolloutResult, RolloutSettings } from './run-rollouts';
export { FORCED_PREFIX_INFO_KEY, forcedPrefixOf, runEpisode } from './run-episode';
export type { EpisodeContext, EpisodeResult, EpisodeSettings, RolloutPrompt, SamplingOptions } from './run-episode';
export { imageFileName, restoreObservation, storeObservation } from './store-observation';
export { trajectorySteps } from './trajectory-steps';

// The trajectory store.
export { openTrajectoryStore } from './trajectory-store';
export type { OpenTrajectoryStoreOptions, StoreImages, TrajectoryStore } from './trajectory-store';
export { streamTrajectories } from './stream-trajectories';
export type { StreamTrajectoriesOptions, UnreadableLine } from './stream-trajectories';
export { checkTrajectoryFilter, matchesTrajectoryFilter, trajectorySuccess } from './trajectory-filter';
export type { TrajectoryFilter } from './trajectory-filter';

// Token sequences with masks.
// The SequenceTokenizer contract lives in @saccade/spec (the built-in model's implementation in
// @saccade/models); re-exported because tokenizeTrajectory and its callers name it.
export { splitOnImages } from '@saccade/spec';
export type { EncodedChat, SequenceMessage, SequenceTokenizer } from '@saccade/spec';
export { QWEN25_SPECIAL_TOKENS, createQwen25SequenceTokenizer } from './qwen25-sequence-tokenizer';
export type { Qwen25SequenceTokenizerOptions } from './qwen25-sequence-tokenizer';
export { tokenizeTrajectory } from './tokenize-trajectory';
export type { RewardPlacement, TokenizeTrajectoryOptions, TrainingSequence } from './tokenize-trajectory';
export { trajectorySequences } from './trajectory-sequences';
export { sampledSequences } from './sampled-sequences';
export type { SampledSequencesOptions } from './sampled-sequences';
export { chatTrajectory } from './chat-trajectory';
export type { ChatTextMessage, ChatTrajectoryOptions } from './chat-trajectory';
export type { TrajectorySequencesOptions } from './trajectory-sequences';
export { createLockstep, isBatchAgent } from './lockstep-agent';
export type { BatchAgent, Lockstep } from './lockstep-agent';

// Export for outside trainers.
export { readSequencesParquet, sequenceToRecord, writeSequencesJsonl, writeSequencesParquet } from './export-sequences';
export type { SequenceRecord } from './export-sequences';
