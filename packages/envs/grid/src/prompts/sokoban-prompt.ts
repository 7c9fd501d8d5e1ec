import type { OutputFormat } from '@saccade/core';
import { formatInstructions } from './format-instructions';
import type { ObservationMode } from '../common/observation-mode';

/** The system prompt: rules, legend for the chosen observation mode, actions, rewards and format. */
export function sokobanSystemPrompt(options: {
  observation: ObservationMode;
  format: OutputFormat;
  maxActions: number;
  separator: string;
}): string {
  const { observation, format, maxActions, separator } = options;
  const symbols = 'Text symbols: # wall, _ floor, O target, X box, √ box on a target, P player, S player on a target.';
  const picture =
    'Picture: dark-brown squares are walls, beige is floor, red rings are targets, orange squares are boxes (green once on a target), the blue disc is you.';
  return [
    'You are a Sokoban player. Push every box onto a target.',
    'Rules: each action moves the player one square. Walking into a box pushes it one square if the square behind it is free floor; you cannot pull boxes, push two boxes or walk through walls.',
    observation === 'text' ? symbols : observation === 'vision' ? picture : `${picture}\n${symbols}`,
    'Actions: Up, Down, Left, Right (Up is towards the top row).',
    'Rewards: −0.1 per action; +1 when a box reaches a target, −1 when one leaves it; +10 when all boxes are on targets; +0.5 each turn whose answer follows the format with valid actions.',
    formatInstructions(format, maxActions, separator, {
      observation: 'The box is to the right of the player. A target is above and to the right of the player. The box is below the target.',
      reasoning: 'The box must go up. I walk below the box, then push it up.',
      prediction: 'The box is above the player. The box is on the target.',
      answer: ['Down', 'Right', 'Up'].join(`${separator} `),
    }),
  ].join('\n');
}
