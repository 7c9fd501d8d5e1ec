// Run-folder layout and file names.
export { RUN_FILES, runPaths, TRAJECTORY_FILES, trajectoriesFile } from './run-files';
export type { RunFileName, RunPaths } from './run-files';
export { RunFolder, metricsRowOf } from './run-folder';
export type { CreateRunFolderOptions, MetricsRow } from './run-folder';

// Control file: what a UI asks of a running trainer.
export { CONTROL_COMMANDS, appendControlCommand, createControlReader, isControlCommand } from './control-file';
export type { ControlCommand, ControlReader } from './control-file';

// Checkpoints index.
export { checkpointPath, lastCheckpoint, listCheckpoints } from './checkpoints';
export type { CheckpointEntry } from './checkpoints';

// Files.
export { readJsonLines } from './json-lines';
export { JsonLinesFollower } from './json-lines-follower';
export type { FollowedLine } from './json-lines-follower';
export { writeFileAtomic } from './write-file-atomic';

// Eval statistics.
export { episodeKey, episodeOf, passAtK, summarizeEval, summarizeToolUse, taskFamily, wilsonInterval } from './eval-statistics';
export type { EvalSummary, RateSummary, TargetLookSummary, ToolUseSummary } from './eval-statistics';

// The looking metrics of an evaluation row, as one progress line.
export { lookingLine } from './looking-line';
// An evaluation row's sampled evaluation (evalSampling), as one progress phrase.
export { sampledLine } from './sampled-line';
export { truncatedPromptsLine } from './truncated-prompts-line';

// TensorBoard event files: live from run events, or exported from metrics.jsonl.
export { TensorBoardWriter, TENSORBOARD_FILE_PREFIX, tensorBoardScalars } from './tensorboard/tensorboard-writer';
export { exportTensorBoard } from './tensorboard/export-tensorboard';
export type { TensorBoardExport } from './tensorboard/export-tensorboard';
export { encodeTfRecord, maskedCrc32c } from './tensorboard/tf-record';
export { TENSORBOARD_FILE_VERSION } from './tensorboard/tensorboard-event';
