// Reward sets and grounding checks.
export { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, groundedRewardSet, scoreGroundedEpisode } from './rewards/grounded-reward-sets';
export type { GroundedEpisodeInput, GroundedReward, GroundedRewardSet, GroundedRewardSetName, GroundedSignals } from './rewards/grounded-reward-sets';
export { DISTINCT_POINT_DISTANCE, distanceToBox, distinctPoints, groundedPoints, pointInImage } from './rewards/grounding-checks';
export type { ImageSize } from './rewards/grounding-checks';
export { answerFitsType, callPoint, IMAGE_ZOOM_IN_TOOL, parseGroundedResponse, parseGroundedTurn, readAnswer, SEARCH_COORDINATE, searchCoordinateCall } from './rewards/grounded-turn';
export type { GroundedResponse, GroundedTurn, ParseGroundedTurnOptions } from './rewards/grounded-turn';

// The multi-turn (and single-turn) grounded search setup.
export { GroundedSearchEnv } from './setup/grounded-search-env';
export type { GroundedMode, GroundedSearchEnvOptions } from './setup/grounded-search-env';
export { createGroundedCropTool, POINT_CROP_PRESET_NAMES, POINT_CROP_PRESETS, presetForTask, resolveCropSettings } from './setup/crop-presets';
export type { CropSettings, PointCropPresetName } from './setup/crop-presets';
export {
  BACKTRACK_MESSAGE,
  budgetSpentNote,
  cropObservation,
  FINAL_THINK,
  FORCED_ANSWER_PREFIX,
  groundedTaskPrompt,
  multiTurnSystemPrompt,
  singleTurnSystemPrompt,
} from './setup/prompts';
export { targetBoxOf } from './setup/target-box';
export { GROUNDED_STOP, playGroundedEpisode, playGroundedEpisodes } from './setup/play-grounded-episode';
export type { PlayedGroundedEpisode, PlayGroundedEpisodeOptions, PlayGroundedEpisodesOptions } from './setup/play-grounded-episode';
export {
  GROUNDED_GUI_GROUNDING_ID,
  GROUNDED_SEARCH_ID,
  GROUNDED_VISUAL_SEARCH_ID,
  GROUNDING_TASK_ENV_IDS,
  groundingTaskSource,
  registerGroundingEnvs,
} from './setup/register-grounding-envs';

// Agents that continue a partial answer, and the scripted noisy agent.
export { applyStop, continueAnswer, partialAnswer, withoutPartialAnswer } from './agents/continue-answer';
export { createContinuingModelAgent } from './agents/continuing-model-agent';
export { CONTINUE_FINAL_MESSAGE_BODY, createContinuingOpenAIAgent } from './agents/continuing-openai-agent';
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
export { chainToDialogue } from './search/chain-dialogue';
export type { ChainDialogue, ChainDialogueOptions } from './search/chain-dialogue';
export { readTreeFile, writeTreeFile } from './search/tree-file';
export type { MctsTreeFile, TreeTaskInfo } from './search/tree-file';
export { countAgentCalls } from './search/counting-agent';
export type { CountingAgent } from './search/counting-agent';

// Data generation for SFT.
export { generateSftData } from './generate/generate-sft-data';
export type { GenerateSftDataOptions, GenerateSftDataResult, TaskGenerationSummary } from './generate/generate-sft-data';
export { sampleSingleTurn } from './generate/best-of-n';
export type { SampleSingleTurnOptions, ScoredSample } from './generate/best-of-n';
export { multiTurnChat, prepareTask, singleTurnChat, singleTurnMessages } from './generate/prepare-task';
export type { PreparedTask, PrepareTaskOptions } from './generate/prepare-task';
export { exampleKey, selectExamples } from './generate/select-examples';
export type { SelectExamplesOptions } from './generate/select-examples';
export { compareSearchMethods } from './generate/compare-search';
export type { CompareSearchOptions, MethodStatistics, SearchComparison, TaskComparison } from './generate/compare-search';

// The SFT file and the built-in model.
export { loadSftImages, readSftFile, sftFileLineSchema, writeSftFile } from './sft/sft-file';
export type { SftFileRecord, SftForm, SftMessage, SftMethod, SftRecord } from './sft/sft-file';
export { loadSftExamples, sftMessages, trainOnSftExamples } from './sft/sft-examples';
export type { LoadedSftExamples, LoadSftExamplesOptions, TrainOnSftExamplesOptions } from './sft/sft-examples';

// Errors.
export { GroundingFileError } from './errors/grounding-file-error';
