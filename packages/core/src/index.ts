// Env registry.
export { ENV_ID_PATTERN, envToolsConflict, getEnvSpec, listEnvs, makeEnv, registerEnv, unregisterEnv } from './registry/env-registry';
export type { MakeEnvSettings, RegisterEnvOptions } from './registry/env-registry';

// Wrappers.
export { EnvWrapper } from './wrappers/env-wrapper';
export { OrderEnforcing } from './wrappers/order-enforcing';
export { RecordEpisodeStatistics } from './wrappers/record-episode-statistics';
export type { EpisodeStatistics } from './wrappers/record-episode-statistics';
export { RewardTerms, weightedRewardTerms } from './wrappers/reward-terms';
export type { RewardTermsSettings, WeightedRewardTerms } from './wrappers/reward-terms';
export { TimeLimit } from './wrappers/time-limit';
export { ToolUseWrapper } from './wrappers/tool-use-wrapper';
export type { LookingOracleOptions, ToolBudget, ToolCallRecord, ToolRewards, ToolUseWrapperOptions } from './wrappers/tool-use-wrapper';
export { HERMES_TOOL_FORMAT } from './wrappers/tool-turn-format';
export type { ToolCallOutcome, ToolTurnFormat, ToolTurnOutcome, ToolTurnReading } from './wrappers/tool-turn-format';

// Output formats.
export { OUTPUT_FORMATS, formatTemplate } from './formats/output-format';
export type { FormatTag, OutputFormat } from './formats/output-format';
export { asciiLowerCase, parseFinalAnswer } from './formats/parse-final-answer';
export type { FinalAnswer } from './formats/parse-final-answer';
export { parseFormattedResponse } from './formats/parse-formatted-response';
export type { ParseFormattedResponseOptions, ParsedResponse } from './formats/parse-formatted-response';
export { parseJsonSafely } from './formats/parse-json-safely';
export type { JsonParseResult } from './formats/parse-json-safely';
export { parsePoints } from './formats/parse-points';
export type { Point } from './formats/parse-points';
export { normalizeToolCall, parseToolCalls } from './formats/parse-tool-calls';
export type { ParseToolCallsOptions, ToolCall, ToolCallParseResult } from './formats/parse-tool-calls';
export { extractTagContent } from './formats/scan-tags';
export { splitActions } from './formats/split-actions';
export type { SplitActionsOptions, SplitActionsResult } from './formats/split-actions';

// ViGoRL's grounded-reasoning format, spoken by the grounded env and written by data generation:
// the crop call, the turn and single-response parsers, the prompts and fixed sentences, and the
// call format and crop budget for ToolUseWrapper.
export { answerFitsType, callPoint, IMAGE_ZOOM_IN_TOOL, parseGroundedResponse, parseGroundedTurn, readAnswer, SEARCH_COORDINATE, searchCoordinateCall } from './grounding/grounded-turn';
export type { GroundedResponse, GroundedTurn, ParseGroundedTurnOptions } from './grounding/grounded-turn';
export {
  BACKTRACK_MESSAGE,
  budgetSpentNote,
  cropObservation,
  FINAL_THINK,
  FORCED_ANSWER_PREFIX,
  groundedTaskPrompt,
  multiTurnSystemPrompt,
  singleTurnSystemPrompt,
} from './grounding/grounded-prompts';
export { vigorlCropBudget, VIGORL_TOOL_FORMAT } from './grounding/vigorl-tool-format';
export { checkPointFrame, frameSize, isImageSize, pointInFrame, pointToOriginal } from './grounding/point-frame';
export type { PointFrame } from './grounding/point-frame';

// Seeded random numbers.
export { createRng } from './random/create-rng';
export type { Rng } from './random/create-rng';

// Conformance checks and image helpers.
export { DEFAULT_BAD_ACTIONS, assertEnv, checkEnv } from './check/check-env';
export type { CheckEnvOptions, CheckEnvReport, EnvFactory } from './check/check-env';
export { countImagePlaceholders } from './check/count-image-placeholders';
export { describeInvalidImage, isImageData } from './check/detect-image-media-type';
// The one media-type sniffer lives in spec (dependency-free, so image can use it too); re-exported here.
export { detectImageMediaType } from '@saccade/spec';

// Action spaces.
export { describeInvalidActionSpace, findActionSpace, formatAnswer, sampleAnswer } from './actions/action-space';

// VAGEN's remote env wire format (the env service and the remote env share it).
export { decodeMultipartBody, encodeMultipartBody } from './remote/multipart-body';
export type { MultipartBody } from './remote/multipart-body';

// Cancellation: waits that end when a signal aborts.
export { abortableDelay } from './abort/abortable-delay';
export { untilAborted } from './abort/until-aborted';

// Trajectories.
export { trajectorySuccess } from './trajectory/trajectory-success';
export { episodeEndEvent } from './trajectory/episode-end-event';
export { summarizeEpisodes } from './trajectory/summarize-episodes';
export type { EpisodeSummary } from './trajectory/summarize-episodes';
export { trajectorySchema } from './trajectory/trajectory-schema';

// Prompt building: an episode's turns as the chat an agent reads.
export { applyHistoryWindow } from './prompt/apply-history-window';
export { applyPromptView, buildMessages, PROMPT_VIEWS } from './prompt/build-messages';
export type { BuildMessagesOptions, HistoryTurn, PromptView } from './prompt/build-messages';
export { observationToContent } from './prompt/observation-to-content';
export { messageText } from './prompt/message-text';

// Tools.
export { defineTool } from './tools/define-tool';
export type { ToolDefinition } from './tools/define-tool';
export { TOOL_NAME_PATTERN, createTool, getTool, listTools, registerTool, unregisterTool } from './tools/tool-registry';
export type { RegisterToolOptions, ToolFactory } from './tools/tool-registry';
export { POINT_CROP_PRESET_NAMES, POINT_CROP_PRESETS, presetForTask, resolveCropSettings } from './tools/point-crop-presets';
export type { CropPresetTask, CropSettings, PointCropPresetName } from './tools/point-crop-presets';
export { toolInputJsonSchema, toolToFunctionSchema, toolsSystemPrompt } from './tools/tool-json-schema';
export type { JsonSchema, ToolFunctionSchema } from './tools/tool-json-schema';
export { describeInvalidResult, runTool, validateToolInput } from './tools/run-tool';
export type { RunToolOptions, ToolFailureKind, ToolRunResult, ValidateToolInputResult } from './tools/run-tool';
export { assertTool, checkTool } from './tools/check-tool';
export type { CheckToolOptions, CheckToolReport } from './tools/check-tool';
export { ToolAlreadyRegisteredError, ToolNotFoundError, ToolSchemaError } from './tools/tool-errors';

// Answer checkers.
export { answerStrings, checkedAnswerChecker, validateAnswerTarget } from './checkers/answer-checker';
export type { AnswerCheck, AnswerChecker, AnswerTarget, AnswerValue } from './checkers/answer-checker';
export { findAnswerChecker, getAnswerChecker, listAnswerCheckers, registerAnswerChecker } from './checkers/answer-checker-registry';
export { checkChartQA, checkFigureQA, checkPlotQA, checkText } from './checkers/chart-checkers';
export { choiceLetter, expectedChoiceIndex, matchChoiceText, parseChoiceLetter, resolveChoice } from './checkers/choices';
export { checkClevr, checkClevrMath, normalizeClevrAnswer } from './checkers/clevr-checkers';
export { checkDocVQA, checkInfographicVQA, createDocumentVqaChecker } from './checkers/document-checkers';
export { anls, editDistance } from './checkers/edit-distance';
export { evaluateExpression } from './checkers/evaluate-expression';
export {
  checkExactMatch,
  checkMultipleChoice,
  checkNumeric,
  checkYesNo,
  compareNumbers,
  createNumericChecker,
  createSetChecker,
  setOverlap,
  splitList,
} from './checkers/generic-checkers';
export type { NumericCheckerOptions } from './checkers/generic-checkers';
export { checkGeometry3K, checkGeoQA, checkUniGeo } from './checkers/geometry-checkers';
export { boxIoU, checkBoxIoU, checkPointInBox, createBoxIoUChecker, distanceToBox, parseBox, parsePoint, pointInBox, pointInImage } from './checkers/grounding-checkers';
export type { BoundingBox, ImageSize } from './checkers/grounding-checkers';
export { checkMapQA, normalizeEntity, parseRange } from './checkers/map-checkers';
export { checkMathVista, checkTabMWP, mathVistaTolerance } from './checkers/math-checkers';
export { containsWord, normalizeAnswer, normalizeVqaAnswer, numberWordValue, parseYesNo } from './checkers/normalize-answer';
export { parseDate, sameDate } from './checkers/parse-date';
export { parseNumber, parseNumericAnswer, withinRelative } from './checkers/parse-number';
export type { ParsedNumber } from './checkers/parse-number';
export { checkAI2D, checkIconQA, checkScienceQA } from './checkers/science-checkers';
export { checkAOkvqa, checkVizWiz, createAOkvqaChecker, createVqaScoreChecker, vqaScore } from './checkers/vqa-score-checkers';

// JSON-lines files: the one streaming reader that task files, dataset records, SFT files and
// trajectory files are read with.
export { readJsonLines } from './files/read-json-lines';
export type { JsonLine, ReadJsonLinesOptions } from './files/read-json-lines';

// Vision-QA tasks: the task contract every env, data adapter and generator speaks (the task-file
// format, task sources, answer types, the prompt that poses a task, the oracle's answer, the
// task-file env's id).
export { ANSWER_TYPES, memoryTaskSchema, taskFileLineSchema } from './tasks/vision-qa-task';
export type { AnswerType, TaskImage, VisionQATask, VisionQATaskInput } from './tasks/vision-qa-task';
export { TaskFileError } from './tasks/task-file-error';
export { describeReceived, describeZodIssue, parseTaskLine, readTaskFile } from './tasks/read-task-file';
export type { ParseTaskLineOptions, ReadTaskFileOptions } from './tasks/read-task-file';
export { formatTaskLine, writeTaskFile } from './tasks/write-task-file';
export { drawTask, indexForSeed } from './tasks/task-source';
export type { TaskSource } from './tasks/task-source';
export { getTaskSourceSpec, listTaskSources, makeTaskSource, registerTaskSource, TASK_SOURCE_ID_PATTERN, unregisterTaskSource } from './tasks/task-source-registry';
export type { RegisterTaskSourceOptions, TaskSourceSpec } from './tasks/task-source-registry';
export { ArrayTaskSource } from './tasks/array-task-source';
export type { ArrayTaskSourceOptions } from './tasks/array-task-source';
export { TaskFileSource } from './tasks/task-file-source';
export { formatInstruction, taskPrompt, vqaSystemPrompt } from './tasks/task-prompt';
export type { AnswerFormat } from './tasks/task-prompt';
export { oracleAnswer } from './tasks/oracle-answer';
export { targetBoxOf } from './tasks/target-box';
export { VISION_QA_ENV_OPTION_NAMES, VISION_QA_ID } from './tasks/vision-qa-id';
