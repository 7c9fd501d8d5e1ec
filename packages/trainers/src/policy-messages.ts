import { observationToContent } from '@saccade/agents';
import type { Message, Observation } from '@saccade/spec';

/**
 * What the built-in policy reads of an observation. `'full'` keeps the env's text with its images in
 * place; `'image'` keeps only the images: for a Markov visual task (a grid world) the image holds the
 * whole state, and dropping a few hundred characters of instructions makes a character-level model's
 * sequences several times shorter, which is most of a CPU training step's cost.
 */
export type PolicyView = 'full' | 'image';

/** The chat the policy answers for one turn (no history: the observation is the state). */
export function policyMessages(observation: Observation, view: PolicyView): Message[] {
  const content =
    view === 'image' ? observation.images.map((image) => ({ type: 'image' as const, image })) : observationToContent(observation);
  return [{ role: 'user', content }];
}
