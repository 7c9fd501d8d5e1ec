import { buildMessages, type HistoryTurn } from '@saccade/agents';
import type { Agent, Env, EnvInfo, ImageData, StepResult } from '@saccade/spec';
import { continueAnswer } from '../agents/continue-answer';

export interface PlayGroundedEpisodeOptions {
  /** Seed of the reset; with `taskIndex` the task is picked by index instead. */
  seed?: number;
  taskIndex?: number;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** A played episode: the chat as the agent saw it (the last feedback left out), its images, and the last step. */
export interface PlayedGroundedEpisode {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  images: ImageData[];
  /** The agent's responses, each with the forced prefix when one was given. */
  responses: string[];
  final: StepResult;
  /** Generations asked of the agent. */
  generations: number;
}

/**
 * Plays one episode of a grounded env: each turn the agent answers the chat so far (stopping at
 * `</tool_call>` or `</answer>`); when the env says the crop budget is spent (`info.forcedPrefix`),
 * the agent continues ViGoRL's forced final answer instead of writing a turn of its own.
 */
export async function playGroundedEpisode(env: Env, agent: Agent, options: PlayGroundedEpisodeOptions = {}): Promise<PlayedGroundedEpisode> {
  const reset = await env.reset({ ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.taskIndex === undefined ? {} : { options: { taskIndex: options.taskIndex } }) });
  let observation = reset.observation;
  let info: EnvInfo = reset.info;
  const systemPrompt = env.systemPrompt();
  const history: HistoryTurn[] = [];
  const responses: string[] = [];
  let generations = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const prefix = typeof info.forcedPrefix === 'string' ? info.forcedPrefix : '';
    const messages = buildMessages({ systemPrompt, history, observation });
    const response = await continueAnswer(agent, messages, prefix, {
      n: 1,
      stop: ['</tool_call>', '</answer>'],
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    generations += 1;
    const action = prefix + (response.outputs[0]?.text ?? '');
    responses.push(action);
    const step = await env.step(action);
    history.push({ observation, action });
    if (step.terminated || step.truncated) {
      const chat: PlayedGroundedEpisode['messages'] = [{ role: 'system', content: systemPrompt }];
      const images: ImageData[] = [];
      for (const turn of history) {
        chat.push({ role: 'user', content: turn.observation.text }, { role: 'assistant', content: turn.action });
        images.push(...turn.observation.images);
      }
      return { messages: chat, images, responses, final: step, generations };
    }
    observation = step.observation;
    info = step.info;
  }
}
