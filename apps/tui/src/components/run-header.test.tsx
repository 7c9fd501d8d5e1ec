import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { fixtureEvents } from '../__fixtures__/load-fixture';
import { initialRunState, reduceRunState } from '../run-state';
import { RunHeader } from './run-header';

const events = fixtureEvents();

test('shows the finished run: name, status, env, model, backend, step, elapsed', () => {
  const state = events.reduce(reduceRunState, initialRunState());
  const { lastFrame } = render(<RunHeader state={state} now={Date.parse('2025-01-01T00:05:00Z')} paused={false} width={100} />);
  expect(lastFrame()).toBe(
    ['saccade · fixture-grpo · completed', 'env saccade/FrozenLake-v1 · model tiny · backend wasm · step 4/8 · elapsed 42s · ETA –'].join('\n'),
  );
});

test('while the run goes: the clock runs and the ETA comes from the update rate', () => {
  // Up to the update of step 4 (38 s in): 10 s a step, 4 steps to go.
  const index = events.findIndex((event) => event.type === 'update-end' && event.step === 4);
  const state = events.slice(0, index + 1).reduce(reduceRunState, initialRunState());
  const { lastFrame } = render(<RunHeader state={state} now={Date.parse('2025-01-01T00:01:05Z')} paused width={100} />);
  expect(lastFrame()).toBe(
    ['saccade · fixture-grpo · running · paused', 'env saccade/FrozenLake-v1 · model tiny · backend wasm · step 4/8 · elapsed 1m05s · ETA 40s'].join('\n'),
  );
});

test('before any event: placeholders, not errors', () => {
  const { lastFrame } = render(<RunHeader state={initialRunState()} now={0} paused={false} width={80} />);
  expect(lastFrame()).toBe(['saccade · run · waiting', 'env ? · model ? · backend ? · step 0 · elapsed ? · ETA –'].join('\n'));
});
