// OpenAI-compatible servers (vLLM, SGLang, llama.cpp, OpenAI).
export { createOpenAICompatibleAgent } from './openai/create-openai-compatible-agent';
export type {
  OpenAICompatibleActOptions,
  OpenAICompatibleAgent,
  OpenAICompatibleAgentSettings,
} from './openai/create-openai-compatible-agent';
export { ImageUrlEncoder, toChatMessages } from './openai/to-chat-messages';
export type { ChatContentPart, ChatMessage } from './openai/to-chat-messages';
export { backoffDelayMs, postJsonWithRetry, retryAfterMs } from './openai/post-with-retry';
export type { PostJsonOptions, PostJsonResult, RetryPolicy } from './openai/post-with-retry';
export { createLimiter } from './create-limiter';
export type { Limiter } from './create-limiter';

// Scripted agents and the mock.
export { createOracleAgent, envChain, findOracle, isOracleCapable } from './scripted/oracle-agent';
export type { OracleAgentSettings, OracleCapable } from './scripted/oracle-agent';
export { createGroundedRandomAgent } from './scripted/grounded-random-agent';
export type { GroundedRandomAgentSettings } from './scripted/grounded-random-agent';
export { createNoisyLookingAgent } from './scripted/noisy-looking-agent';
export type { NoisyLookingAgentSettings } from './scripted/noisy-looking-agent';
export { createRandomAgent } from './scripted/random-agent';
export type { RandomAgentSettings } from './scripted/random-agent';
export { writeFormattedResponse } from './scripted/format-response';
export { createReplayAgent } from './scripted/replay-agent';
export type { ReplayAgent, ReplayAgentSettings } from './scripted/replay-agent';
export { parseTrajectoriesJsonl, readTrajectories, readTrajectoriesSync } from './scripted/read-trajectories';
// The schema and its error moved to core and spec (rollout's store reads with them); re-exported for agents' users.
export { trajectorySchema } from '@saccade/core';
export { MockAgent, createMockAgent } from './scripted/mock-agent';
export type { MockAgentSettings, MockResponse, RecordedCall } from './scripted/mock-agent';

// Continuing a partial answer (MCTS expansions, forced final answers).
export { applyStop, continueAnswer, withoutPartialAnswer } from './continue/continue-answer';
export { CONTINUE_FINAL_MESSAGE_BODY, createContinuingOpenAIAgent } from './continue/continuing-openai-agent';

// Prompt building (in @saccade/core, which rollout builds prompts with; re-exported for agents' users)
// and VISTA reflection feedback.
export { applyHistoryWindow, applyPromptView, buildMessages, observationToContent, PROMPT_VIEWS } from '@saccade/core';
export type { BuildMessagesOptions, HistoryTurn, PromptView } from '@saccade/core';
export {
  attemptsRemainingText,
  formatErrorFeedback,
  numericDirection,
  numericDirectionHint,
  parseNumericAnswer,
  reflectionFeedback,
} from './prompt/reflection-feedback';
export type { NumericDirection, ReflectionFeedbackOptions } from './prompt/reflection-feedback';

// Errors.
export { AgentRequestError } from './errors/agent-request-error';
export type { AgentRequestFailure } from './errors/agent-request-error';
export { AgentResponseError } from './errors/agent-response-error';
export { OracleNotFoundError } from './errors/oracle-not-found-error';
export { TrajectoryFileError } from '@saccade/spec';
