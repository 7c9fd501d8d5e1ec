// The contributor's test kit: a small deterministic env, a small tool, an episode runner, stored
// trajectories for summaries' tests, sample images and vision-QA task files, and a stand-in HTTP
// server. `@saccade/core/testing`; not part of the main entry, so none of it loads in a run.
export { GUESS_NUMBER_ID, GuessNumberEnv } from './testing/guess-number-env';
export type { GuessNumberFaults } from './testing/guess-number-env';
export { createEchoTool, echoTool } from './testing/echo-tool';
export type { EchoToolInput, EchoToolSettings } from './testing/echo-tool';
export { runEpisode } from './testing/run-episode';
export { storedTrajectory, storedTurn } from './testing/stored-trajectory';
export type { EpisodeRun, RunEpisodeOptions, ScriptedResponse } from './testing/run-episode';
export { RED_PIXEL_PNG, TASK_IMAGES } from './testing/sample-images';
export { makeTaskFolder, SAMPLE_TASKS, writeJsonLines } from './testing/task-folder';
export { startStandInServer } from './testing/stand-in-server';
export type { RecordedRequest, StandInHandler, StandInReply, StandInServer } from './testing/stand-in-server';
