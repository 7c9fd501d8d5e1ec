import { describe, expect, test } from 'vitest';
import type { Output } from './output';
import { createEpisodeProgress, createProgressPrinter, formatDuration } from './progress-printer';

const time = '2026-11-22T00:00:00.000Z';

function capture(): Output & { out: string[] } {
  const out: string[] = [];
  return { out, log: (line) => out.push(line), error: (line) => out.push(line) };
}

describe('createProgressPrinter', () => {
  test('without a terminal: one line per interval, the ETA from update time only, every eval', () => {
    const output = capture();
    const print = createProgressPrinter(output, { totalSteps: 10, interactive: false, intervalSeconds: 3600 });
    // 30 s went on collecting data before step 1; then 2 s a step.
    print({ type: 'update-end', time, step: 1, metrics: { loss: 2, tokensPerSecond: 1000, seconds: 32 } });
    print({ type: 'update-end', time, step: 2, metrics: { loss: 1.5, tokensPerSecond: 1000, seconds: 34 } });
    print({ type: 'eval-end', time, step: 2, metrics: { success: 0.125, formatRate: 1, meanReward: 1.5, episodes: 200 } });
    // With the sampled evaluation (evalSampling), its mean@n follows the greedy success.
    print({ type: 'eval-end', time, step: 3, metrics: { success: 0.125, formatRate: 1, meanReward: 1.5, episodes: 200, sampledSuccess: 0.3, sampledSamples: 4, sampledTemperature: 0.7 } });
    // Prompts cut to fit the context are said; none cut, nothing said.
    print({ type: 'eval-end', time, step: 4, metrics: { success: 0.5, formatRate: 1, meanReward: 0.5, episodes: 200, truncatedPrompts: 0.0625 } });
    print({ type: 'eval-end', time, step: 5, metrics: { success: 0.5, formatRate: 1, meanReward: 0.5, episodes: 200, truncatedPrompts: 0 } });
    expect(output.out).toEqual([
      'step 1/10  loss 2.0000  1000 tokens/s  32s elapsed, ETA ?',
      'eval @ step 2: success 12.5% of 200 held-out episodes, format 100.0%, mean reward 1.50',
      'eval @ step 3: success 12.5% of 200 held-out episodes, sampled 30.0% (mean@4 at temperature 0.7), format 100.0%, mean reward 1.50',
      'eval @ step 4: success 50.0% of 200 held-out episodes, format 100.0%, mean reward 0.50, 6.3% of prompts cut to fit the context',
      'eval @ step 5: success 50.0% of 200 held-out episodes, format 100.0%, mean reward 0.50',
    ]);
  });

  test('on a terminal: the status line is redrawn, evals print below it', () => {
    const output = capture();
    const status: string[] = [];
    const print = createProgressPrinter(output, { totalSteps: 10, interactive: true, writeStatus: (line) => status.push(line) });
    print({ type: 'update-end', time, step: 1, metrics: { loss: 2, tokensPerSecond: 1000, seconds: 32 } });
    print({ type: 'update-end', time, step: 2, metrics: { loss: 1.5, tokensPerSecond: 1000, seconds: 34 } });
    expect(status).toEqual([
      'step 1/10  loss 2.0000  1000 tokens/s  32s elapsed, ETA ?',
      'step 2/10  loss 1.5000  1000 tokens/s  34s elapsed, ETA 16s',
    ]);
    expect(output.out).toEqual([]);
  });

  test("the ETA knows the phases' time guards: a GRPO its guard will stop ends on it, not after all its steps", () => {
    const output = capture();
    const status: string[] = [];
    const phases = [
      { steps: 400, timeLimitSeconds: 540 },
      { steps: 200, timeLimitSeconds: 330 },
    ];
    const print = createProgressPrinter(output, { totalSteps: 600, phases, interactive: true, writeStatus: (line) => status.push(line) });
    // SFT: 0.5 s a step; 300 steps left (150 s), then GRPO's 330 s.
    print({ type: 'update-end', time, step: 99, metrics: { loss: 1, tokensPerSecond: 1000, seconds: 50 } });
    print({ type: 'update-end', time, step: 100, metrics: { loss: 1, tokensPerSecond: 1000, seconds: 50.5 } });
    // GRPO after SFT stopped at step 380: 3 s a step would need 594 s for its 198 steps left; the limit leaves 324.
    print({ type: 'update-end', time, step: 381, metrics: { loss: 0.1, tokensPerSecond: 500, seconds: 3 } });
    print({ type: 'update-end', time, step: 382, metrics: { loss: 0.1, tokensPerSecond: 500, seconds: 6 } });
    expect(status).toEqual([
      'step 99/600  loss 1.0000  1000 tokens/s  50s elapsed, ETA ?',
      'step 100/600  loss 1.0000  1000 tokens/s  51s elapsed, ETA 8m00s',
      'step 381/600  loss 0.1000  500 tokens/s  54s elapsed, ETA ?',
      'step 382/600  loss 0.1000  500 tokens/s  57s elapsed, ETA 5m24s',
    ]);
  });

  test('a policy step with nothing to train on says so instead of a NaN loss', () => {
    const output = capture();
    const status: string[] = [];
    const print = createProgressPrinter(output, { totalSteps: 10, interactive: true, writeStatus: (line) => status.push(line) });
    print({ type: 'update-end', time, step: 1, metrics: { tokensPerSecond: 0, seconds: 5 } });
    expect(status).toEqual(['step 1/10  no update (nothing to train on)  5s elapsed, ETA ?']);
  });

  test('a second phase (GRPO) keeps the elapsed time running and measures its own rate', () => {
    const output = capture();
    const status: string[] = [];
    const print = createProgressPrinter(output, { totalSteps: 10, interactive: true, writeStatus: (line) => status.push(line) });
    print({ type: 'update-end', time, step: 1, metrics: { loss: 2, tokensPerSecond: 1000, seconds: 200 } });
    print({ type: 'update-end', time, step: 2, metrics: { loss: 1, tokensPerSecond: 1000, seconds: 202 } });
    // GRPO restarts its clock at 0; its steps take 5 s.
    print({ type: 'update-end', time, step: 3, metrics: { loss: 0.1, tokensPerSecond: 500, seconds: 5 } });
    print({ type: 'update-end', time, step: 4, metrics: { loss: 0.1, tokensPerSecond: 500, seconds: 10 } });
    expect(status.slice(2)).toEqual([
      'step 3/10  loss 0.1000  500 tokens/s  3m27s elapsed, ETA ?',
      'step 4/10  loss 0.1000  500 tokens/s  3m32s elapsed, ETA 30s',
    ]);
  });

  test("warnings (a time guard's cut) and errors print with their level; other messages as they are", () => {
    const output = capture();
    const print = createProgressPrinter(output, { totalSteps: 4, interactive: false });
    const cut = "SFT was cut short by its time limit (sft.timeLimitSeconds: 0.001 s): it stopped at step 1 of 4; this run's curve is not the one its configured steps give";
    print({ type: 'log', time, level: 'info', message: '320 demonstrations ready' });
    print({ type: 'log', time, level: 'warn', step: 1, message: cut });
    print({ type: 'log', time, level: 'error', message: 'the judge is unreachable' });
    print({ type: 'checkpoint-saved', time, step: 1, path: 'checkpoints/1' });
    expect(output.out).toEqual(['320 demonstrations ready', `warning: ${cut}`, 'error: the judge is unreachable', 'checkpoint saved: checkpoints/1']);
  });

  test('formatDuration', () => {
    expect([formatDuration(5), formatDuration(65), formatDuration(3600), formatDuration(Number.NaN)]).toEqual(['5s', '1m05s', '60m00s', '?']);
    expect([formatDuration(179.6), formatDuration(59.7), formatDuration(119.4)]).toEqual(['3m00s', '1m00s', '1m59s']);
  });
});

describe('createEpisodeProgress', () => {
  test('without a terminal: a line per interval and the last one, with success, rate and ETA', () => {
    const output = capture();
    let now = 0;
    const progress = createEpisodeProgress(output, { total: 4, alreadyDone: 1, interactive: false, intervalSeconds: 10, now: () => now });
    now = 1000;
    progress.episodeDone(true);
    now = 11_000;
    progress.episodeDone(false);
    now = 12_000;
    progress.episodeDone(true);
    expect(output.out).toEqual([
      'episodes 3/4  success 50.0%  0.2 episodes/s  11s elapsed, ETA 6s',
      'episodes 4/4  success 66.7%  0.3 episodes/s  12s elapsed, ETA 0s',
    ]);
  });
});
