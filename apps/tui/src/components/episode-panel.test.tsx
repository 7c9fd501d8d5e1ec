import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { FIXTURE_RUN, fixtureEvents, fixtureTrajectories } from '../__fixtures__/load-fixture';
import { waitFor } from '../__fixtures__/wait-for';
import { runFolderImageLoader } from '../run-folder-feed';
import { addTrajectory, initialRunState, reduceRunState } from '../run-state';
import { EpisodePanel } from './episode-panel';

const withTrajectories = fixtureTrajectories().reduce(addTrajectory, fixtureEvents().reduce(reduceRunState, initialRunState()));
const eventsOnly = fixtureEvents().reduce(reduceRunState, initialRunState());

test('the newest episode: state text, turns with tool call and tool result, rewards by term', () => {
  const { lastFrame } = render(<EpisodePanel episodes={withTrajectories.episodes} selected={7} width={80} height={20} imageMode="text" />);
  expect(lastFrame()!.split('\n').map((line) => line.trimEnd())).toEqual([
    'episode 8/8 ←/→ · saccade/FrozenLake-v1 seed 109 · step 4 · reward 0.1 ✗',
    '[image 32×32 png ff49209c]',
    'You are on a frozen lake. <image> Reach the goal without falling into a hole.',
    'turn 1 ▸ <think>The goal is bottom right.</think><tool_call>{"name": "zoom",',
    '"arguments": {"box": [0, 0, 16, 16]}}</tool_call>',
    '  reward 0 = format 0 + tool 0',
    '  ◂ <tool_response>zoomed: the agent stands at the top left</tool_response>',
    '<image>',
    'turn 2 ▸ <answer>Right,Right,Down,Down,Down,Right</answer>',
    '  reward 0.1 = format 0.1 + success 0',
    ...Array<string>(10).fill(''),
  ]);
});

test('from events alone: the actions and rewards, without the observations', () => {
  const { lastFrame } = render(<EpisodePanel episodes={eventsOnly.episodes} selected={6} width={80} height={8} />);
  expect(lastFrame()!.split('\n').map((line) => line.trimEnd())).toEqual([
    'episode 7/8 ←/→ · saccade/FrozenLake-v1 seed 108 · step 4 · reward 1.1 ✓',
    'turn 1 ▸ <think>The goal is bottom right.</think><tool_call>{"name": "zoom",',
    '"arguments": {"box": [0, 0, 16, 16]}}</tool_call>',
    '  reward 0 = format 0 + tool 0',
    'turn 2 ▸ <answer>Right,Right,Down,Down,Down,Right</answer>',
    '  reward 1.1 = format 0.1 + success 1',
    '',
    '',
  ]);
});

test('draws the observation image as half blocks once it has loaded', async () => {
  const view = render(<EpisodePanel episodes={withTrajectories.episodes} selected={0} width={80} height={12} loadImage={runFolderImageLoader(FIXTURE_RUN)} />);
  await waitFor(() => view.lastFrame()!.includes('▀'));
  const lines = view.lastFrame()!.split('\n');
  // The square 32×32 image fits 16 columns × 8 rows (16×16 pixels); the text sits beside it.
  for (const line of lines.slice(1, 9)) expect(line.match(/▀/g)).toHaveLength(16);
  expect(lines[9]).toMatch(/^turn 1 ▸/);
  expect(lines[1]).toContain('You are on a frozen lake.');
});

test('an image that cannot be read falls back to its description', async () => {
  const view = render(<EpisodePanel episodes={withTrajectories.episodes} selected={0} width={80} height={12} loadImage={async () => undefined} />);
  await waitFor(() => view.lastFrame()!.includes('[image 32×32 png ff49209c]'));
});

test('no episodes yet', () => {
  const { lastFrame } = render(<EpisodePanel episodes={[]} selected={0} width={40} height={3} />);
  expect(lastFrame()!.split('\n').map((line) => line.trimEnd())).toEqual(['episodes', 'no episodes yet', '']);
});
