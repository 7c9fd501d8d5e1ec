import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { fixtureEvents } from '../__fixtures__/load-fixture';
import { EVAL_MARKER, SAMPLED_MARKER } from '../line-chart';
import { initialRunState, reduceRunState } from '../run-state';
import { ChartPanel } from './chart-panel';

const state = fixtureEvents().reduce(reduceRunState, initialRunState());

test('the loss chart: tabs, the curve from 1 to 0.25 over steps 1–4, the latest value', () => {
  const { lastFrame } = render(<ChartPanel state={state} chart="loss" width={50} height={8} />);
  const lines = lastFrame()!.split('\n');
  expect(lines).toHaveLength(8);
  expect(lines[0]).toBe(' reward   success   loss   kl   entropy');
  // The first point, loss 1 at step 1, is the top-left dot.
  expect(lines[1]).toMatch(/^ 1\.00┤[\u2801-\u28ff]/);
  expect(lines[1]!.codePointAt(6)! & 0x01).toBe(1);
  expect(lines[3]!.startsWith('0.625┤')).toBe(true);
  expect(lines[5]!.startsWith('0.250┤')).toBe(true);
  expect(lines[6]).toBe(`     └1${'─'.repeat(42)}4`);
  expect(lines[7]).toBe(`⠤⠤ train ${EVAL_MARKER} eval  latest 0.25 @ 4 · eval –`);
  expect(lines.slice(1, 6).join('')).not.toContain(EVAL_MARKER); // No evaluation measured loss.
});

test('the success chart marks the three evaluations', () => {
  const { lastFrame } = render(<ChartPanel state={state} chart="success" width={50} height={8} />);
  const plot = lastFrame()!.split('\n').slice(1, 6).join('\n');
  expect([...plot].filter((character) => character === EVAL_MARKER)).toHaveLength(3);
  expect(lastFrame()!.split('\n')[7]).toBe(`⠤⠤ train ${EVAL_MARKER} eval  latest 0.5 @ 4 · eval 0.5 @ 4`);
});

test("the success chart of a run with a sampled evaluation: its points and its latest value in the legend", () => {
  const sampled = reduceRunState(state, { type: 'eval-end', time: '2026-01-01T00:00:10Z', step: 4, metrics: { success: 0.5, sampledSuccess: 0.375, sampledSamples: 4, sampledTemperature: 0.7 } });
  const { lastFrame } = render(<ChartPanel state={sampled} chart="success" width={70} height={8} />);
  const plot = lastFrame()!.split('\n').slice(1, 6).join('\n');
  expect([...plot].filter((character) => character === SAMPLED_MARKER)).toHaveLength(1);
  expect(lastFrame()!.split('\n')[7]).toBe(`⠤⠤ train ${EVAL_MARKER} eval  latest 0.5 @ 4 · eval 0.5 @ 4 · ${SAMPLED_MARKER} sampled 0.375 @ 4`);
});

test('updates as events arrive', () => {
  const first = fixtureEvents().slice(0, 13).reduce(reduceRunState, initialRunState());
  const view = render(<ChartPanel state={first} chart="loss" width={40} height={8} />);
  expect(view.lastFrame()).toContain('latest 1 @ 1');
  view.rerender(<ChartPanel state={state} chart="loss" width={40} height={8} />);
  expect(view.lastFrame()).toContain('latest 0.25 @ 4');
});
