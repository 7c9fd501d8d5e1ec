import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { fixtureEvents } from '../__fixtures__/load-fixture';
import { initialRunState, reduceRunState } from '../run-state';
import { EventLog } from './event-log';

test('shows the newest lines that fit, warnings marked and counted', () => {
  const state = fixtureEvents().reduce(reduceRunState, initialRunState());
  const { lastFrame } = render(<EventLog log={state.log} width={100} height={5} />);
  expect(lastFrame()).toBe(
    [
      'events 1 warning',
      '00:00:20 eval @ step 2: success 30.0%, mean reward 0.40, 20 episodes',
      '00:00:40 eval @ step 4: success 50.0%, mean reward 0.60, 20 episodes',
      '00:00:42 checkpoint saved: checkpoints/4',
      '00:00:42 run completed',
    ].join('\n'),
  );
  const taller = render(<EventLog log={state.log} width={100} height={6} />);
  expect(taller.lastFrame()!.split('\n')[1]).toBe('00:00:18 warn: gradient norm clipped at 1.0');
});

test('cuts long lines to the width instead of wrapping them', () => {
  const { lastFrame } = render(<EventLog log={[{ time: '2025-01-01T10:11:12Z', level: 'error', message: 'x'.repeat(200) }]} width={30} height={3} />);
  expect(lastFrame()!.split('\n')).toEqual(['events 1 warning', `10:11:12 error: ${'x'.repeat(13)}…`, '']);
});
