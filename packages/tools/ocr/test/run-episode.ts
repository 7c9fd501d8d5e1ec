import type { MockAgent } from '@saccade/agents';
import { runRollouts, trajectorySteps } from '@saccade/rollout';
import type { Env, ImageData, Message, StepResult } from '@saccade/spec';

/** Plays one episode through the rollout manager (the agent sees real chat messages: system prompt, history, images); the env's step results. */
export async function runEpisode(env: Env, agent: MockAgent, seed = 0, maxTurns = 10): Promise<StepResult[]> {
  const { trajectories, images } = await runRollouts({ agent, prompts: [{ envId: env.id, seed }], createEnv: () => env, maxTurns });
  const [trajectory] = trajectories;
  if (trajectory?.error !== undefined) throw new Error(`The episode failed: ${trajectory.error.name}: ${trajectory.error.message}`);
  return trajectorySteps(trajectory!, images);
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
