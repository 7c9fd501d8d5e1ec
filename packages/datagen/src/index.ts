// Playing the grounded env with any agent, a group of samples at a time.
export { GROUNDED_STOP, playGroundedEpisode, playGroundedEpisodes } from './generate/play-grounded-episode';
export type { PlayedGroundedEpisode, PlayGroundedEpisodeOptions, PlayGroundedEpisodesOptions } from './generate/play-grounded-episode';
// A linearised MCTS chain played in the multi-turn env by a replay agent.
export { playChain } from './generate/play-chain';
export type { PlayChainOptions } from './generate/play-chain';

// The scripted noisy agent: a sampling VLM's stand-in that grounds near the target, for tests and benches.
export { createNoisyGroundingAgent } from './agents/noisy-grounding-agent';
export type { NoisyGroundingAgentSettings } from './agents/noisy-grounding-agent';
export { firstImage, groundTruthOf, TaskLookup } from './agents/task-lookup';
export type { GroundTruth } from './agents/task-lookup';

// Search: MCTS over thought steps, tree files, linearisation.
export { DEFAULT_MCTS_SETTINGS, resolveMctsSettings, runMcts, uctScore } from './search/mcts';
export type { MctsNode, MctsResult, MctsRollout, MctsSettings, MctsTask } from './search/mcts';
export { chainKey, formatChain, readContinuation, thinkPrefix } from './search/chain-text';
export type { ReadContinuation, ReasoningChain } from './search/chain-text';
export { allRollouts, correctRollouts, linearizeTree } from './search/linearize-tree';
export type { LinearizedChain, LinearizeOptions } from './search/linearize-tree';
export { chainActions } from './search/chain-actions';
export type { ChainActionsOptions } from './search/chain-actions';
export { readTreeFile, writeTreeFile } from './search/tree-file';
export type { MctsTreeFile, TreeTaskInfo } from './search/tree-file';
export { countAgentCalls } from './search/counting-agent';
export type { CountingAgent } from './search/counting-agent';

// Data generation for SFT.
export { generateSftData } from './generate/generate-sft-data';
export type { GenerateSftDataOptions, GenerateSftDataResult, TaskGenerationSummary } from './generate/generate-sft-data';
export { sampleBestOfN } from './generate/best-of-n';
export type { SampleBestOfNOptions, SampleSignals, ScoredSample } from './generate/best-of-n';
export { multiTurnChat, prepareTask, singleTurnChat, singleTurnMessages } from './generate/prepare-task';
export type { PreparedTask, PrepareTaskOptions } from './generate/prepare-task';
export { exampleKey, selectExamples } from './generate/select-examples';
export type { SelectExamplesOptions } from './generate/select-examples';
export { compareSearchMethods } from './generate/compare-search';
export type { CompareSearchOptions, MethodStatistics, SearchComparison, TaskComparison } from './generate/compare-search';

// The SFT file (trained on by @saccade/trainers' trainSft).
export { loadSftImages, readSftFile, sftFileLineSchema, writeSftFile } from './sft/sft-file';
export type { SftFileRecord, SftForm, SftMessage, SftMethod, SftRecord } from './sft/sft-file';
export { loadExampleImages, sftDemonstrations } from './sft/sft-demonstrations';
export type { SftDemonstrations } from './sft/sft-demonstrations';
export { readSftExamples } from './sft/read-sft-examples';
export type { ReadSftExamplesOptions } from './sft/read-sft-examples';
export { detectSftLayout, toSftExample } from './sft/sft-layouts';
export type { SftExample, SftLayout, SftRecordContext } from './sft/sft-layouts';
export { readDatasetColumns, SHAREGPT_DEFAULTS } from './sft/dataset-info';
export type { DatasetColumns } from './sft/dataset-info';
export { readJsonRecords } from './sft/json-records';
export type { JsonRecord } from './sft/json-records';

// Errors.
export { GroundingFileError } from './errors/grounding-file-error';
