// Reward sets and grounding checks.
export { GROUNDED_REWARD_SET_INFO, GROUNDED_REWARD_SETS, groundedRewardSet, scoreGroundedEpisode } from './rewards/grounded-reward-sets';
export type { GroundedEpisodeInput, GroundedReward, GroundedRewardSet, GroundedRewardSetName, GroundedSignals } from './rewards/grounded-reward-sets';
export { DISTINCT_POINT_DISTANCE, distinctPoints, groundedPoints } from './rewards/grounding-checks';
// ViGoRL's format (the call, the parsers, the prompts, VIGORL_TOOL_FORMAT and vigorlCropBudget) and
// the geometry (pointInImage, distanceToBox, targetBoxOf) are @saccade/core's: data generation
// writes the same format without depending on this package.

// The multi-turn (and single-turn) grounded search env.
export { GroundedSearchEnv } from './env/grounded-search-env';
export type { GroundedMode, GroundedSearchEnvOptions } from './env/grounded-search-env';
// Its parts: the task env and the reward-set wrapper (ToolUseWrapper with core's VIGORL_TOOL_FORMAT between them).
export { GroundedTaskEnv } from './env/grounded-task-env';
export type { GroundedTaskEnvOptions } from './env/grounded-task-env';
export { GroundedRewardSetWrapper } from './env/grounded-reward-set-wrapper';
export type { GroundedRewardSetWrapperOptions } from './env/grounded-reward-set-wrapper';
export {
  GROUNDED_GUI_GROUNDING_ID,
  GROUNDED_SEARCH_ID,
  GROUNDED_VISUAL_SEARCH_ID,
  GROUNDING_TASK_ENV_IDS,
  GROUNDING_TASK_SOURCES,
  groundingTaskSource,
  registerGroundingEnvs,
} from './env/register-grounding-envs';
