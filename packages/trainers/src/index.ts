export { collectDemonstrations, unwrapGridEnv, type CollectDemonstrationsOptions, type Demonstration } from './collect-demonstrations';
export { evaluatePolicy, type EvaluatePolicyOptions, type PolicyEvaluation } from './evaluate-policy';
export { warmupCosineLearningRate } from './learning-rate-schedule';
export { policyMessages, type PolicyView } from './policy-messages';
export { trainSft, type TrainSftResult, type TrainSftSettings } from './train-sft';
export * from './advantages/index';
export { playEpisodes, type PlayEpisodesOptions, type PlayedEpisode, type PlayedTurn } from './play-episodes';
export { summarizeEpisodes } from './evaluate-policy';
export { trainGrpo, policyExamples, policyLossReference, type TrainGrpoResult, type TrainGrpoSettings } from './train-grpo';
export { policyShardLoss, type PolicyExample, type PolicyLossContext } from './losses/policy-loss';
export { ppoShardLoss, type PpoExample, type PpoLossContext } from './losses/ppo-loss';
export {
  trainPpo,
  ppoBatch,
  ppoAdvantages,
  episodeSequence,
  ppoLossReference,
  type AdvantageEstimator,
  type EpisodeSequence,
  type PpoAdvantageSettings,
  type PpoBatchStatistics,
  type TrainPpoResult,
  type TrainPpoSettings,
} from './train-ppo';
export { runPolicyUpdates, type PolicyUpdateResult, type PolicyUpdateSettings } from './policy-training';
export { assertDisjointSeeds, seedRange, type SeedRange } from './seed-range';
export { saveTrainingCheckpoint, type TrainingCheckpointMetadata } from './training-checkpoint';
