import type { RunEvent } from '@saccade/spec';
import { render } from 'ink-testing-library';
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { FIXTURE_RUN, fixtureEvents } from '../__fixtures__/load-fixture';
import { waitFor } from '../__fixtures__/wait-for';
import type { RunControl } from '../run-control';
import { feedFromSource } from '../run-feed';
import { runFolderFeed } from '../run-folder-feed';
import { TrainingApp } from './training-app';

const LEFT = '\u001B[D';
const RIGHT = '\u001B[C';

function recordingControl(): RunControl & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
    saveCheckpoint: () => void calls.push('checkpoint'),
    stop: () => void calls.push('stop'),
  };
}

function renderApp(overrides: Partial<Parameters<typeof TrainingApp>[0]> = {}) {
  const control = recordingControl();
  let quit: boolean | undefined;
  const view = render(
    <TrainingApp
      feed={runFolderFeed(FIXTURE_RUN, { intervalMs: 20 })}
      control={control}
      columns={100}
      rows={30}
      now={() => Date.parse('2025-01-01T00:01:00Z')}
      onQuit={(stop) => {
        quit = stop;
      }}
      {...overrides}
    />,
  );
  const frame = (): string => view.lastFrame() ?? '';
  /** Waits until the screen shows every one of `texts`. */
  const until = (...texts: string[]) => waitFor(() => texts.every((text) => frame().includes(text)), 5000, frame);
  return { view, control, frame, until, quitWith: () => quit };
}

describe('TrainingApp on the recorded run folder', () => {
  test('fills every panel and fits the terminal', async () => {
    const { frame, view, until } = renderApp();
    await until('run completed', 'You are on a frozen lake');
    const lines = frame().split('\n');
    // One row spare, so Ink never has to clear the screen to redraw.
    expect(lines).toHaveLength(29);
    expect(lines[0]).toBe('saccade · fixture-grpo · completed');
    expect(lines[2]).toBe('episodes/s 0.23 · tokens/s 1,400 · episodes 8 · checkpoint step 4');
    expect(lines[3]).toMatch(/^ reward {3}success {3}loss {3}kl {3}entropy +episode 8\/8/);
    expect(lines.at(-1)).toBe('p pause · s checkpoint · ←/→ episodes · tab chart · q quit');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    view.unmount();
  });

  test('p pauses and resumes, s asks for a checkpoint, through the control', async () => {
    const { view, control, frame, until } = renderApp();
    await until('run completed');
    view.stdin.write('p');
    await until('pause: requested');
    expect(frame().split('\n')[0]).toContain('· paused');
    expect(frame().split('\n').at(-1)).toMatch(/^p resume ·/);
    view.stdin.write('p');
    await until('resume: requested');
    view.stdin.write('s');
    await until('checkpoint: requested');
    expect(control.calls).toEqual(['pause', 'resume', 'checkpoint']);
    view.unmount();
  });

  test('←/→ and [ ] step through episodes; tab and c switch charts', async () => {
    const { view, frame, until } = renderApp();
    await until('episode 8/8');
    view.stdin.write(LEFT);
    await until('episode 7/8', 'reward 1.1 = format 0.1 + success 1');
    view.stdin.write('[');
    await until('episode 6/8');
    view.stdin.write(']');
    await until('episode 7/8');
    view.stdin.write(RIGHT);
    await until('episode 8/8');
    view.stdin.write(RIGHT); // Stays on the newest.
    view.stdin.write('\t');
    await until('latest 0.5 @ 4 · eval 0.5 @ 4'); // success
    view.stdin.write('c');
    await until('latest 0.25 @ 4 · eval –'); // loss
    expect(frame()).toContain('episode 8/8');
    view.unmount();
  });

  test('q asks first; n goes back; y quits and leaves a watched run going', async () => {
    const { view, control, until, quitWith } = renderApp();
    await until('run completed');
    view.stdin.write('q');
    await until('Quit watching? y: quit, the run goes on · x: stop the run and quit · n: no');
    view.stdin.write('n');
    await until('q quit');
    view.stdin.write('q');
    await until('Quit watching?');
    view.stdin.write('y');
    await waitFor(() => quitWith() === false);
    expect(control.calls).toEqual([]);
  });

  test('x in the prompt stops the watched run, then quits', async () => {
    const { view, control, until, quitWith } = renderApp();
    await until('run completed');
    view.stdin.write('q');
    await until('Quit watching?');
    view.stdin.write('x');
    await waitFor(() => quitWith() === true);
    expect(control.calls).toEqual(['stop']);
  });
});

describe('TrainingApp in-process', () => {
  test('quitting stops the run; Ctrl-C does the same without asking', async () => {
    const emitter = new EventEmitter();
    const first = renderApp({ feed: feedFromSource(emitter), quitStopsRun: true });
    first.view.stdin.write('q');
    await first.until('Stop the run and quit? y: yes · n: no');
    first.view.stdin.write('y');
    await waitFor(() => first.quitWith() === true);
    expect(first.control.calls).toEqual(['stop']);

    const second = renderApp({ feed: feedFromSource(new EventEmitter()), quitStopsRun: true });
    second.view.stdin.write('\u0003');
    await waitFor(() => second.quitWith() === true);
    expect(second.control.calls).toEqual(['stop']);
  });

  test('a burst of events costs a few redraws, not one each', async () => {
    const emitter = new EventEmitter();
    const { view, until } = renderApp({ feed: feedFromSource(emitter), redrawIntervalMs: 100 });
    await until('waiting');
    const before = view.frames.length;
    const start = Date.parse('2025-01-01T00:00:00Z');
    emitter.emit('event', { type: 'run-start', time: new Date(start).toISOString(), runName: 'burst' } satisfies RunEvent);
    for (let step = 1; step <= 2000; step++) {
      emitter.emit('event', { type: 'update-end', time: new Date(start + step * 10).toISOString(), step, metrics: { loss: 1 / step } } satisfies RunEvent);
    }
    await until('step 2000');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(view.frames.length - before).toBeLessThanOrEqual(3);
    view.unmount();
  });

  test('an async iterable of events feeds it too, and the UI closes when the run ends if asked', async () => {
    async function* events(): AsyncGenerator<RunEvent> {
      for (const event of fixtureEvents()) yield event;
    }
    const { view, until } = renderApp({ feed: feedFromSource(events()), exitOnRunEnd: true, redrawIntervalMs: 20 });
    await until('run completed');
    // Unmounted: it stopped reading keys.
    await waitFor(() => view.stdin.listenerCount('readable') === 0);
  });
});
