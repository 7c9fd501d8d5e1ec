import type { OutputFormat } from '@saccade/core';
import type { ObservationMode } from '../common/observation-mode';
import { formatInstructions } from './format-instructions';


/** The system prompt: rules, legend for the chosen observation mode, actions, rewards and format. */
export function frozenLakeSystemPrompt(options: {
  observation: ObservationMode;
  format: OutputFormat;
  maxActions: number;
  separator: string;
  slippery: boolean;
}): string {
  const { observation, format, maxActions, separator, slippery } = options;
  const symbols = 'Text symbols: P player, _ frozen ice, O hole, G goal, X player in a hole, √ player on the goal.';
  const picture =
    'Picture: light-blue squares are ice, dark-navy squares are holes, the green square with a yellow diamond is the goal, the red disc is you (a white cross on it: you fell in a hole).';
  return [
    'You are a FrozenLake player. Walk the player across the frozen lake to the goal.',
    `Rules: each action moves the player one square. Moving off the edge leaves you in place. Stepping into a hole ends the episode without reward; reaching the goal ends it with reward 10.${
      slippery ? ' The ice is slippery: each move goes the intended way or one of the two perpendicular ways, each with probability 1/3.' : ''
    }`,
    observation === 'text' ? symbols : observation === 'vision' ? picture : `${picture}\n${symbols}`,
    'Actions: Up, Down, Left, Right (Up is towards the top row).',
    `Rewards: +0.5 each turn whose answer follows the format with valid actions; +10 for reaching the goal.`,
    formatInstructions(format, maxActions, separator, {
      observation: 'The goal is below and to the right of the player. A hole is to the right of the player.',
      reasoning: 'The hole blocks the way right, so I go down first, then right.',
      prediction: 'The goal is to the right of the player. A hole is above and to the right of the player.',
      answer: ['Down', 'Right'].join(`${separator} `),
    }),
  ].join('\n');
}
