import { abortableDelay, buildMessages, episodeEndEvent, type HistoryTurn, type PromptView } from '@saccade/core';
import {
  InvalidArgumentError,
  type Agent,
  type AgentActOptions,
  type AgentResponse,
  type Env,
  type AgentPrompt,
  type ImageData,
  type ImageRef,
  type Message,
  type Observation,
  type RunEvent,
  type Trajectory,
  type Turn,
  type TurnPrompt,
} from '@saccade/spec';
import { storeObservation } from './store-observation';

/** One start state: an env id, a seed and options. Each prompt is played `groupSize` times. */
export interface RolloutPrompt {
  envId: string;
  /** Same seed, same episode; `null` or absent lets the env pick. */
  seed?: number | null;
  /** Options for the env's factory (`makeEnv(envId, envOptions)`). */
  envOptions?: Record<string, unknown>;
  /** Options for `env.reset({ seed, options })`. */
  resetOptions?: Record<string, unknown>;
  /** Copied into each trajectory's `metadata`. */
  metadata?: Record<string, unknown>;
}

/** What an agent factory learns about the episode it will play. */
export interface EpisodeContext {
  episodeId: string;
  groupId: string;
  prompt: RolloutPrompt;
  /** Index of the prompt in the batch. */
  promptIndex: number;
  /** Index of the episode within its group, 0 … groupSize − 1. */
  sampleIndex: number;
  env: Env;
}

/** Sampling settings passed to every `agent.act` call. */
export type SamplingOptions = Pick<AgentActOptions, 'temperature' | 'topP' | 'maxTokens' | 'stop'>;

/** The settings one episode runs under (resolved by the rollout manager). */
export interface EpisodeSettings {
  agent: Agent | ((context: EpisodeContext) => Agent | Promise<Agent>);
  createEnv: (prompt: RolloutPrompt) => Env | Promise<Env>;
  maxTurns: number;
  historyWindow: number;
  view: PromptView;
  agentRetries: number;
  retryDelayMs: number;
  sampling: SamplingOptions;
  emit: (event: RunEvent) => void;
  step: number | undefined;
  signal: AbortSignal | undefined;
}

/** A finished episode: the trajectory and the bytes of the images it refers to, by hash. */
export interface EpisodeResult {
  trajectory: Trajectory;
  images: Map<string, ImageData>;
}

/**
 * The `info` key (of a reset or a step) by which an env asks for the start of the agent's next
 * response: ViGoRL's forced final answer once the crop budget is spent, a response format to go on
 * from. See runEpisode.
 */
export const FORCED_PREFIX_INFO_KEY = 'forcedPrefix';

/** The prefix an env's reset or step `info` asks the next response to start with; undefined when none (or empty). */
export function forcedPrefixOf(info: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const prefix = info?.[FORCED_PREFIX_INFO_KEY];
  return typeof prefix === 'string' && prefix.length > 0 ? prefix : undefined;
}

/**
 * Plays one episode: reset, then agent and env in turn until the env says terminated or truncated,
 * or `maxTurns` turns (then the trajectory is truncated). Never throws: an error from the env or
 * from the agent (after its retries) ends the episode with `trajectory.error` set.
 *
 * A forced prefix: when the reset's or the last step's `info.forcedPrefix` is a non-empty string,
 * the turn's messages end with an assistant message holding it, and the agent is asked to continue
 * it (as vLLM's `continue_final_message` does; the built-in model with `continueFinalMessage`). The
 * action the env gets and the turn records is the prefix followed by the agent's text. An agent
 * that cannot continue reads the prefix as an earlier assistant message and answers after it; its
 * answer is appended to the prefix all the same. The turn records the prefix (`forcedPrefix`); its
 * `tokens` and `logprobs` (the continuation only) are recorded only with the prompt the agent
 * sampled them from (`turn.prompt`, ending with the prefix), else a tokenizer encodes the action's text.
 */
export async function runEpisode(context: Omit<EpisodeContext, 'env'>, settings: EpisodeSettings): Promise<EpisodeResult> {
  const { episodeId, groupId, prompt } = context;
  const seed = prompt.seed ?? null;
  const images = new Map<string, ImageData>();
  const turns: Turn[] = [];
  const startedAt = new Date().toISOString();
  const trajectory: Trajectory = {
    id: episodeId,
    envId: prompt.envId,
    seed,
    agentId: typeof settings.agent === 'function' ? 'unknown' : settings.agent.id,
    groupId,
    turns,
    totalReward: 0,
    terminated: false,
    truncated: false,
    startedAt,
  };
  if (prompt.metadata !== undefined) trajectory.metadata = { ...prompt.metadata };
  settings.emit({ type: 'episode-start', time: startedAt, episodeId, envId: prompt.envId, seed, groupId, ...stepField(settings.step) });
  let env: Env | undefined;
  try {
    settings.signal?.throwIfAborted();
    env = await settings.createEnv(prompt);
    const agent = typeof settings.agent === 'function' ? await settings.agent({ ...context, env }) : settings.agent;
    trajectory.agentId = agent.id;
    const reset = await env.reset({ ...(seed === null ? {} : { seed }), ...(prompt.resetOptions ? { options: prompt.resetOptions } : {}) });
    const systemPrompt = env.systemPrompt();
    if (systemPrompt.length > 0) trajectory.systemPrompt = systemPrompt;
    let observation: Observation = reset.observation;
    let prefix = forcedPrefixOf(reset.info);
    const history: HistoryTurn[] = [];
    // Each observation image's stored reference, for the prompts that show it again.
    const references = new Map<ImageData, ImageRef>();
    for (let index = 0; index < settings.maxTurns; index++) {
      settings.signal?.throwIfAborted();
      const stored = storeObservation(observation, images);
      observation.images.forEach((image, position) => references.set(image, stored.images[position]!));
      const messages = buildMessages({ systemPrompt, history, observation, historyWindow: settings.historyWindow, view: settings.view });
      if (prefix !== undefined) messages.push({ role: 'assistant', content: prefix });
      const agentStart = performance.now();
      const response = await act(agent, { messages, ...settings.sampling, ...(settings.signal ? { signal: settings.signal } : {}) }, settings);
      const agentMs = performance.now() - agentStart;
      const output = response.outputs?.[0];
      if (typeof output?.text !== 'string') {
        throw new InvalidArgumentError({ argument: `${agent.id}.act() response`, expected: 'outputs[0].text, a string', value: response });
      }
      const action = prefix === undefined ? output.text : prefix + output.text;
      const envStart = performance.now();
      const result = await env.step(action);
      const envMs = performance.now() - envStart;
      const turn: Turn = {
        observation: stored,
        action,
        reward: result.reward,
        rewardTerms: result.info.rewardTerms ?? {},
        terminated: result.terminated,
        truncated: result.truncated,
        info: result.info,
        timing: { agentMs, envMs },
      };
      if (output.finishReason !== undefined) turn.finishReason = output.finishReason;
      // A prefixed action was not all sampled: its sampled tokens are kept only with the prompt they
      // continued (which holds the prefix), so that a trainer scores them in that context.
      if (prefix !== undefined) turn.forcedPrefix = prefix;
      const recorded = prefix === undefined || response.prompt !== undefined;
      if (recorded && Array.isArray(output.tokens)) turn.tokens = output.tokens;
      if (recorded && Array.isArray(output.logprobs)) turn.logprobs = output.logprobs;
      if (turn.tokens !== undefined && response.prompt !== undefined) turn.prompt = promptOf(response.prompt, messages, references);
      turns.push(turn);
      trajectory.totalReward += result.reward;
      settings.emit({
        type: 'turn-end',
        time: new Date().toISOString(),
        episodeId,
        turn: index,
        reward: result.reward,
        rewardTerms: turn.rewardTerms,
        action,
        ...stepField(settings.step),
      });
      history.push({ observation, action });
      observation = result.observation;
      prefix = forcedPrefixOf(result.info);
      if (result.terminated || result.truncated) {
        trajectory.terminated = result.terminated;
        trajectory.truncated = result.truncated;
        break;
      }
    }
    // The manager's turn cap cuts the episode off like a time limit would.
    if (!trajectory.terminated && !trajectory.truncated) trajectory.truncated = true;
    trajectory.finalObservation = storeObservation(observation, images);
  } catch (error) {
    trajectory.error = describeError(error);
  } finally {
    if (env !== undefined) {
      try {
        await env.close();
      } catch (error) {
        trajectory.metadata = { ...trajectory.metadata, closeError: describeError(error) };
      }
    }
  }
  trajectory.endedAt = new Date().toISOString();
  settings.emit(episodeEndEvent(trajectory, settings.step));
  return { trajectory, images };
}

/** `agent.act`, tried again up to `agentRetries` times with doubling delays; an abort is not retried. */
async function act(agent: Agent, options: AgentActOptions, settings: EpisodeSettings): Promise<AgentResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await agent.act(options);
    } catch (error) {
      if (attempt >= settings.agentRetries || settings.signal?.aborted) throw error;
      await abortableDelay(settings.retryDelayMs * 2 ** attempt, settings.signal);
    }
  }
}

/** The agent's prompt as a turn records it: its ids, and the references of the images it kept (the chat's last ones). */
function promptOf(prompt: AgentPrompt, messages: readonly Message[], references: ReadonlyMap<ImageData, ImageRef>): TurnPrompt {
  const shown: ImageRef[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type !== 'image') continue;
      const reference = references.get(part.image);
      if (reference === undefined) throw new Error('A prompt image is not among the episode\'s observations.');
      shown.push(reference);
    }
  }
  if (!Number.isSafeInteger(prompt.images) || prompt.images < 0 || prompt.images > shown.length) {
    throw new InvalidArgumentError({ argument: 'response.prompt.images', expected: `an integer from 0 to ${shown.length} (the images of the chat)`, value: prompt.images });
  }
  return {
    tokens: prompt.tokens,
    images: shown.slice(shown.length - prompt.images),
    ...(prompt.truncatedTokens ? { truncatedTokens: prompt.truncatedTokens } : {}),
  };
}

function stepField(step: number | undefined): { step?: number } {
  return step === undefined ? {} : { step };
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
