import { buildMessages, type HistoryTurn, type MockAgent } from '@saccade/agents';
import type { Env, ImageData, Message, StepResult } from '@saccade/spec';

/** Plays one episode: the agent sees real chat messages (system prompt, history, images). */
export async function runEpisode(env: Env, agent: MockAgent, seed = 0, maxTurns = 10): Promise<StepResult[]> {
  let { observation } = await env.reset({ seed });
  const history: HistoryTurn[] = [];
  const steps: StepResult[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const messages = buildMessages({ systemPrompt: env.systemPrompt(), history, observation });
    const { outputs } = await agent.act({ messages });
    const action = outputs[0]!.text;
    const step = await env.step(action);
    steps.push(step);
    history.push({ observation, action });
    observation = step.observation;
    if (step.terminated || step.truncated) break;
  }
  return steps;
}

/** The text and images of the last user message. */
export function lastObservation(messages: readonly Message[]): { text: string; images: ImageData[] } {
  const last = messages[messages.length - 1]!;
  if (typeof last.content === 'string') return { text: last.content, images: [] };
  return {
    text: last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    images: last.content.flatMap((part) => (part.type === 'image' ? [part.image] : [])),
  };
}
