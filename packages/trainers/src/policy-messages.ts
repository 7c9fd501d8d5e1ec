import { IMAGE_PLACEHOLDER, type ContentPart, type Message, type Observation } from '@saccade/spec';

/**
 * What the built-in policy reads of an observation. `'full'` keeps the env's text with its images in
 * place; `'image'` keeps only the images: for a Markov visual task (a grid world) the image holds the
 * whole state, and dropping a few hundred characters of instructions makes a character-level model's
 * sequences ~6× shorter, which is most of a CPU training step's cost.
 */
export type PolicyView = 'full' | 'image';

/** The chat the policy answers for one turn (no history: the observation is the state). */
export function policyMessages(observation: Observation, view: PolicyView): Message[] {
  const parts: ContentPart[] = [];
  if (view === 'image') {
    for (const image of observation.images) parts.push({ type: 'image', image });
  } else {
    const pieces = observation.text.split(IMAGE_PLACEHOLDER);
    pieces.forEach((text, index) => {
      if (text.length > 0) parts.push({ type: 'text', text });
      const image = observation.images[index];
      if (index < pieces.length - 1 && image) parts.push({ type: 'image', image });
    });
  }
  return [{ role: 'user', content: parts }];
}
