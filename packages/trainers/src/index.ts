export { collectDemonstrations, unwrapGridEnv, type CollectDemonstrationsOptions, type Demonstration } from './collect-demonstrations';
export { evaluatePolicy, type EvaluatePolicyOptions, type PolicyEvaluation } from './evaluate-policy';
export { warmupCosineLearningRate } from './learning-rate-schedule';
export { policyMessages, type PolicyView } from './policy-messages';
export { trainSft, type TrainSftResult, type TrainSftSettings } from './train-sft';
export * from './advantages/index';
