import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { fixtureEvents } from '../__fixtures__/load-fixture';
import { initialRunState, reduceRunState } from '../run-state';
import { ThroughputPanel } from './throughput-panel';

test('shows episodes/s, tokens/s, episodes done and the last checkpoint', () => {
  const state = fixtureEvents().reduce(reduceRunState, initialRunState());
  const { lastFrame } = render(<ThroughputPanel state={state} width={100} />);
  // 7 episodes in 31 s; the last update's 1,400 tokens/s.
  expect(lastFrame()).toBe('episodes/s 0.23 · tokens/s 1,400 · episodes 8 · checkpoint step 4');
});

test('dashes before anything is measured', () => {
  const { lastFrame } = render(<ThroughputPanel state={initialRunState()} width={100} />);
  expect(lastFrame()).toBe('episodes/s – · tokens/s – · episodes 0 · checkpoint –');
});
