// Drives the real UI in tmux, attached to a run folder that a background process is writing: the
// way a user watches a run over SSH. Skipped where tmux is not installed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../src/__fixtures__/wait-for';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const built = existsSync(join(examples, '..', 'dist', 'index.js'));
const socket = `saccade-tui-test-${process.pid}`;
const session = 'watch';

let config = '/dev/null';
const tmux = (...args: string[]): string => {
  // A private server (-L) with its own config (-f): the test never touches the user's tmux.
  const result = spawnSync('tmux', ['-L', socket, '-f', config, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
};
const screen = (): string => tmux('capture-pane', '-p', '-t', session);
const until = (check: (text: string) => boolean, timeoutMs = 20_000) => waitFor(() => check(screen()), timeoutMs, screen);
const stepShown = (text: string): number => Number(/step (\d+)\/40/.exec(text)?.[1] ?? -1);

describe.skipIf(!hasTmux || !built)(`the UI in tmux${hasTmux ? (built ? '' : ' (skipped: run the build first)') : ' (skipped: tmux is not installed)'}`, () => {
  let folder: string;
  let writer: ChildProcess;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'saccade-tui-tmux-'));
    // 256 colours, as tmux users have them (tmux's own default, "screen", has 8).
    config = join(folder, 'tmux.conf');
    writeFileSync(config, 'set -g default-terminal "screen-256color"\n');
    writeFileSync(join(folder, 'events.jsonl'), '');
    writer = spawn(process.execPath, [join(examples, 'simulate-run.mjs'), folder, '--steps', '40', '--interval', '250'], { stdio: 'ignore' });
    // The UI decides on colours from the pane's terminal, not from the test runner's settings.
    // CI=false: Ink draws only the final frame when it thinks it runs in CI (CI is set there).
    const command = `env -u FORCE_COLOR -u NO_COLOR CI=false ${JSON.stringify(process.execPath)} ${JSON.stringify(join(examples, 'watch-run.mjs'))} ${JSON.stringify(folder)}; echo "EXITED $?"; sleep 60`;
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '36', command);
  });

  afterAll(() => {
    writer?.kill();
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  });

  test('charts and the episode view follow the run as it is written', async () => {
    await until((text) => stepShown(text) >= 3 && text.includes('Step '));
    const first = screen();
    expect(first).toContain('saccade · simulated · running');
    expect(first).toContain('backend cpu');
    // The observation image as half blocks (tmux gives the UI colours), once its trajectory is read.
    await until((text) => text.includes('▀'.repeat(16)));
    const firstStep = stepShown(first);
    const firstEpisode = /Step (\d+): reach the goal/.exec(first)?.[1];
    await until((text) => stepShown(text) >= firstStep + 3);
    const later = screen();
    expect(/Step (\d+): reach the goal/.exec(later)?.[1]).not.toBe(firstEpisode);
    // The chart's step axis runs from the first step to a later one.
    expect(later).toMatch(/└1─+\d+/);
    for (const line of later.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  test('p writes a pause command the run obeys, p again resumes', async () => {
    tmux('send-keys', '-t', session, 'p');
    await until((text) => text.includes('· paused') && text.includes('control: pause'));
    const commands = () => readFileSync(join(folder, 'control.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).command as string);
    expect(commands()).toEqual(['pause']);
    const pausedAt = stepShown(screen());
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(stepShown(screen())).toBe(pausedAt);
    tmux('send-keys', '-t', session, 'p');
    await until((text) => text.includes('control: resume') && stepShown(text) > pausedAt);
    expect(commands()).toEqual(['pause', 'resume']);
  });

  test('←/→ step through episodes, tab switches the chart', async () => {
    tmux('send-keys', '-t', session, 'p'); // Hold the run still so the episode count stays put.
    await until((text) => text.includes('· paused') && /control: pause\s*\n(?![\s\S]*control:)/.test(text));
    await new Promise((resolve) => setTimeout(resolve, 800));
    const count = Number(/episode (\d+)\/(\d+)/.exec(screen())?.[2]);
    // One key at a time: Ink reads keys that arrive in one chunk as one sequence. ([ ] are
    // covered by the component tests.)
    tmux('send-keys', '-t', session, 'Left');
    await until((text) => text.includes(`episode ${count - 1}/${count}`));
    tmux('send-keys', '-t', session, 'Left');
    await until((text) => text.includes(`episode ${count - 2}/${count}`));
    tmux('send-keys', '-t', session, 'Right');
    await until((text) => text.includes(`episode ${count - 1}/${count}`));
    // The tab labels always spell 'success': wait for the chart's own line to change (the run is
    // paused, so only the switch changes it), else a second Tab can arrive in the same chunk.
    const rewardLine = /latest [^\n]*/.exec(screen())?.[0];
    tmux('send-keys', '-t', session, 'Tab');
    await until((text) => {
      const line = /latest [^\n]*/.exec(text)?.[0];
      return line !== undefined && line !== rewardLine && /latest [\d.]+ @ \d+ · eval [\d.]+ @ \d+/.test(line);
    });
    tmux('send-keys', '-t', session, 'Tab');
    await until((text) => /latest [\d.]+ @ \d+ · eval –/.test(text)); // The loss chart: no evaluation of loss.
    tmux('send-keys', '-t', session, 'p');
    await until((text) => /control: resume\s*\n(?![\s\S]*control:)/.test(text));
  });

  test('redraws to fit a resized window', async () => {
    tmux('resize-window', '-t', session, '-x', '84', '-y', '28');
    await until((text) => text.split('\n').every((line) => line.length <= 84) && text.includes('saccade · simulated'));
    const lines = screen().split('\n');
    expect(lines[0]).toMatch(/^saccade · simulated/);
    expect(lines.filter((line) => line.startsWith('saccade · simulated'))).toHaveLength(1);
  });

  test('q asks, y quits cleanly and leaves the run going', async () => {
    tmux('send-keys', '-t', session, 'q');
    await until((text) => text.includes('Quit watching? y: quit'));
    tmux('send-keys', '-t', session, 'y');
    await until((text) => text.includes('EXITED 0'));
    expect(screen()).toContain(`left ${folder}`);
    expect(writer.exitCode).toBeNull(); // Still writing.
    expect(readFileSync(join(folder, 'control.jsonl'), 'utf8')).not.toContain('"stop"');
  });
});
