// Reward sets and grounding checks.
export { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, groundedRewardSet, scoreGroundedEpisode } from './rewards/grounded-reward-sets';
export type { GroundedEpisodeInput, GroundedReward, GroundedRewardSet, GroundedRewardSetName, GroundedSignals } from './rewards/grounded-reward-sets';
export { DISTINCT_POINT_DISTANCE, distanceToBox, distinctPoints, groundedPoints, pointInImage } from './rewards/grounding-checks';
export type { ImageSize } from './rewards/grounding-checks';
export { answerFitsType, callPoint, IMAGE_ZOOM_IN_TOOL, parseGroundedResponse, parseGroundedTurn, readAnswer, SEARCH_COORDINATE, searchCoordinateCall } from './rewards/grounded-turn';
export type { GroundedResponse, GroundedTurn, ParseGroundedTurnOptions } from './rewards/grounded-turn';

// The multi-turn (and single-turn) grounded search env.
export { GroundedSearchEnv } from './env/grounded-search-env';
export type { GroundedMode, GroundedSearchEnvOptions } from './env/grounded-search-env';
// Its parts: the task env, ViGoRL's call format and crop budget for ToolUseWrapper, the reward-set wrapper.
export { GroundedTaskEnv } from './env/grounded-task-env';
export type { GroundedTaskEnvOptions } from './env/grounded-task-env';
export { vigorlCropBudget, VIGORL_TOOL_FORMAT } from './env/vigorl-tool-format';
export { GroundedRewardSetWrapper } from './env/grounded-reward-set-wrapper';
export type { GroundedRewardSetWrapperOptions } from './env/grounded-reward-set-wrapper';
export {
  BACKTRACK_MESSAGE,
  budgetSpentNote,
  cropObservation,
  FINAL_THINK,
  FORCED_ANSWER_PREFIX,
  groundedTaskPrompt,
  multiTurnSystemPrompt,
  singleTurnSystemPrompt,
} from './env/prompts';
export { targetBoxOf } from './env/target-box';
export {
  GROUNDED_GUI_GROUNDING_ID,
  GROUNDED_SEARCH_ID,
  GROUNDED_VISUAL_SEARCH_ID,
  GROUNDING_TASK_ENV_IDS,
  groundingTaskSource,
  registerGroundingEnvs,
} from './env/register-grounding-envs';
