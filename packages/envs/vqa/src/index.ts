// The env and its registration.
export { VISION_QA_ENV_OPTION_NAMES, VisionQAEnv, type VisionQAEnvOptions } from './env/vision-qa-env';
export { VISION_QA_ID, registerVqaEnvs } from './register-vqa-envs';

// Rewards, reflection and prompts.
export { DEFAULT_VISTA_REWARDS, REWARD_SETS, vistaR1Terms, type RewardSet, type TurnRecord, type VistaRewards } from './env/vista-rewards';
export { detectRepetition, type RepetitionReport } from './env/detect-repetition';
export { directionHint, formatErrorFeedback, wrongAnswerFeedback } from './env/reflection-feedback';
// The prompt that poses a task and the oracle's answer live with the task contract in @saccade/core.
export { formatInstruction, oracleAnswer, taskPrompt, vqaSystemPrompt, type AnswerFormat } from '@saccade/core';

// The task contract lives in @saccade/core; re-exported here, where it was first defined.
export {
  ANSWER_TYPES,
  ArrayTaskSource,
  TaskFileError,
  TaskFileSource,
  describeReceived,
  describeZodIssue,
  formatTaskLine,
  indexForSeed,
  memoryTaskSchema,
  parseTaskLine,
  readTaskFile,
  taskFileLineSchema,
  writeTaskFile,
  type AnswerType,
  type ArrayTaskSourceOptions,
  type ParseTaskLineOptions,
  type ReadTaskFileOptions,
  type TaskImage,
  type TaskSource,
  type VisionQATask,
  type VisionQATaskInput,
} from '@saccade/core';
