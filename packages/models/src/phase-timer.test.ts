import { afterEach, describe, expect, it } from 'vitest';
import { activePhaseTimer, formatPhaseTable, PhaseTimer, phaseTable, setPhaseTimer, timePhase, type PhaseTotals } from './phase-timer';

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let time = 0;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => setPhaseTimer(undefined));

describe('PhaseTimer', () => {
  it('nests phases by where they start, through awaits', async () => {
    const clock = manualClock();
    const timer = new PhaseTimer(clock.now);
    await timer.time('update', async () => {
      timer.time('forward', () => {
        clock.advance(3);
        timer.time('decoder', () => clock.advance(2));
      });
      await tick();
      // After an await the context is still `update`.
      timer.time('adam', () => clock.advance(4));
      clock.advance(1);
    });
    timer.close();
    expect(timer.take()).toEqual({
      phases: {
        update: { ms: 10, calls: 1 },
        'update/forward': { ms: 5, calls: 1 },
        'update/forward/decoder': { ms: 2, calls: 1 },
        'update/adam': { ms: 4, calls: 1 },
      },
      workers: {},
    });
  });

  it('counts concurrent runs of a phase once, while any runs', async () => {
    const clock = manualClock();
    const timer = new PhaseTimer(clock.now);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = timer.time('env.step', async () => {
      await gate;
    });
    clock.advance(2);
    const second = timer.time('env.step', async () => {
      await gate;
      clock.advance(3);
    });
    clock.advance(5);
    release();
    await Promise.all([first, second]);
    timer.close();
    // From the first start (0) to the last end (10): 10 ms, two calls.
    expect(timer.take().phases).toEqual({ 'env.step': { ms: 10, calls: 2 } });
  });

  it('ends a phase whose function throws or rejects, and passes the error on', async () => {
    const clock = manualClock();
    const timer = new PhaseTimer(clock.now);
    expect(() =>
      timer.time('sync', () => {
        clock.advance(1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    await expect(
      timer.time('async', async () => {
        clock.advance(2);
        throw new Error('late');
      }),
    ).rejects.toThrow('late');
    timer.close();
    expect(timer.take().phases).toEqual({ sync: { ms: 1, calls: 1 }, async: { ms: 2, calls: 1 } });
  });

  it('records measured time under the open phase, keeps workers apart, and take() starts afresh', () => {
    const clock = manualClock();
    const timer = new PhaseTimer(clock.now);
    timer.time('update', () => {
      clock.advance(6);
      timer.record('backward', 4);
    });
    timer.recordWorker({ forward: { ms: 7, calls: 1 } });
    timer.recordWorker({ forward: { ms: 5, calls: 1 } });
    // A phase still open at take() counts up to then and goes on from there.
    timer.time('play', () => {
      clock.advance(3);
      expect(timer.take()).toEqual({
        phases: { update: { ms: 6, calls: 1 }, 'update/backward': { ms: 4, calls: 1 }, play: { ms: 3, calls: 1 } },
        workers: { forward: { ms: 12, calls: 2 } },
      });
      clock.advance(2);
    });
    const second = timer.take();
    timer.close();
    expect(second).toEqual({ phases: { play: { ms: 2, calls: 0 } }, workers: {} });
  });

  it('timePhase reports to the active timer only', () => {
    const clock = manualClock();
    expect(timePhase('idle', () => 42)).toBe(42);
    const timer = new PhaseTimer(clock.now);
    setPhaseTimer(timer);
    expect(activePhaseTimer()).toBe(timer);
    expect(timePhase('busy', () => (clock.advance(5), 'done'))).toBe('done');
    setPhaseTimer(undefined);
    timePhase('after', () => clock.advance(1));
    timer.close();
    expect(timer.take().phases).toEqual({ busy: { ms: 5, calls: 1 } });
  });
});

describe('phaseTable', () => {
  const steps: { wallMs: number; phases: PhaseTotals }[] = [
    { wallMs: 100, phases: { play: { ms: 60, calls: 1 }, 'play/generate': { ms: 50, calls: 4 }, update: { ms: 30, calls: 1 } } },
    { wallMs: 140, phases: { play: { ms: 80, calls: 1 }, 'play/generate': { ms: 70, calls: 6 }, 'play/env.step': { ms: 6, calls: 10 }, update: { ms: 50, calls: 1 } } },
  ];

  it('averages phases over steps, as shares of the step, with (other) rows that close each level', () => {
    const table = phaseTable(steps);
    expect(table.msPerStep).toBe(120);
    expect(Object.keys(table.phases)).toEqual(['play', 'play/generate', 'play/env.step', 'play/(other)', 'update', '(other)']);
    expect(table.phases).toEqual({
      play: { ms: 70, share: 70 / 120, calls: 1 },
      'play/generate': { ms: 60, share: 60 / 120, calls: 5 },
      'play/env.step': { ms: 3, share: 3 / 120, calls: 5 },
      'play/(other)': { ms: 7, share: 7 / 120, calls: 0 },
      update: { ms: 40, share: 40 / 120, calls: 1 },
      '(other)': { ms: 10, share: 10 / 120, calls: 0 },
    });
    // Leaves and (other) rows add up to the step.
    const leaves = ['play/generate', 'play/env.step', 'play/(other)', 'update', '(other)'];
    expect(leaves.reduce((sum, path) => sum + table.phases[path]!.ms, 0)).toBe(120);
  });

  it('formats the table as indented lines', () => {
    expect(formatPhaseTable(phaseTable(steps), 'grpo default')).toEqual([
      'grpo default: 120 ms/step',
      `${'  play'.padEnd(40)}      70.0 ms   58.3 %`,
      `${'    generate'.padEnd(40)}      60.0 ms   50.0 %`,
      `${'    env.step'.padEnd(40)}       3.0 ms    2.5 %`,
      `${'    (other)'.padEnd(40)}       7.0 ms    5.8 %`,
      `${'  update'.padEnd(40)}      40.0 ms   33.3 %`,
      `${'  (other)'.padEnd(40)}      10.0 ms    8.3 %`,
    ]);
  });

  it('is empty with no steps', () => {
    expect(phaseTable([])).toEqual({ msPerStep: 0, phases: {} });
  });
});
