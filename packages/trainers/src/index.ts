export { checkEvalSampling, evaluatePolicy, evaluationMetrics, lookingMetrics, summarizeTrajectories, type EvalSampling, type LookingMetrics, type PolicyEvaluation } from './evaluate-policy';
export { createPolicyEpisodes, DEFAULT_STOP, type EpisodeSettings, type PlayedBatch, type PlayOptions, type PolicyEpisodes } from './policy-episodes';
export { warmupConstantLearningRate, warmupCosineLearningRate } from './learning-rate-schedule';
export { sftLossReference, trainSft, type TrainSftResult, type TrainSftSettings } from './train-sft';
export { countTargets, maskedCrossEntropy, sftShardLoss, sftStep, type SftExample, type SftLossContext } from './losses/sft-loss';
export * from './advantages/index';
export { missedLookTurns } from './missed-look-turns';
export { trainGrpo, grpoBatch, policyExamples, policyLossReference, type GrpoAdvantageSettings, type GrpoGroupStatistics, type TrainGrpoResult, type TrainGrpoSettings } from './train-grpo';
export { POLICY_LOSS_AGGREGATIONS, policyShardLoss, stopGradient, type PolicyExample, type PolicyLossAggregation, type PolicyLossContext } from './losses/policy-loss';
export { rolloutDiagnostics, type RolloutDiagnostics } from './rollout-diagnostics';
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
export {
  attachOldLogProbs,
  checkLogprobGap,
  DEFAULT_MAX_LOGPROB_GAP,
  runPolicyUpdates,
  samplingDistribution,
  type PolicyUpdateResult,
  type PolicyUpdateSettings,
} from './policy-training';
export { assertDisjointSeeds, seedRange, type SeedRange } from './seed-range';
export { saveTrainingCheckpoint, type TrainingCheckpointMetadata } from './training-checkpoint';
export { recordedEpisodes, recordedEvaluation, trainedSequence, type EpisodeRecorder, type UsedEpisode } from './training-record';
export type { PolicyPhaseResult, PolicyPhaseSettings } from './policy-phase-settings';
