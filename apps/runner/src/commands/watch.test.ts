import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-watch-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('saccade watch', () => {
  test('a folder without events.jsonl is a usage error', async () => {
    const output = capture();
    const { exitCode } = await runCli(['watch', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err).toEqual([`${scratch} is not a run folder: it has no events.jsonl.`]);
  });

  test('without a terminal it says so instead of drawing', async () => {
    writeFileSync(join(scratch, 'events.jsonl'), '');
    const output = capture();
    const { exitCode } = await runCli(['watch', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err[0]).toMatch(/^saccade watch needs a terminal/);
  });

  const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');
  const hasTmux = spawnSync('tmux', ['-V']).status === 0;
  test.skipIf(!hasTmux || !existsSync(cli))(`in a terminal (tmux) it shows the run and quits on q, y${hasTmux ? '' : ' (skipped: no tmux)'}`, async () => {
    const folder = join(scratch, 'run');
    rmSync(folder, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const time = new Date().toISOString();
    appendFileSync(join(folder, 'events.jsonl'), `${JSON.stringify({ type: 'run-start', time, runName: 'watched', config: { env: { id: 'saccade/FrozenLake-v1' } } })}\n`);
    appendFileSync(join(folder, 'events.jsonl'), `${JSON.stringify({ type: 'update-end', time, step: 1, metrics: { loss: 0.5 } })}\n`);
    const socket = `saccade-watch-test-${process.pid}`;
    const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout;
    try {
      // CI=false: Ink draws only the final frame when it thinks it runs in CI (CI is set there).
      // 200 columns: the last line names the run folder, whose path (under the test run's nested
      // temporary folders, or macOS's long TMPDIR) must not wrap.
      tmux('new-session', '-d', '-s', 'w', '-x', '200', '-y', '30', `env CI=false ${process.execPath} ${cli} watch ${folder}; echo "EXITED $?"; sleep 30`);
      const until = async (text: string): Promise<void> => {
        for (let tries = 0; tries < 150 && !tmux('capture-pane', '-p', '-t', 'w').includes(text); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(tmux('capture-pane', '-p', '-t', 'w')).toContain(text);
      };
      await until('saccade · watched · running');
      tmux('send-keys', '-t', 'w', 'q');
      await until('Quit watching?');
      tmux('send-keys', '-t', 'w', 'y');
      await until('EXITED 0');
      expect(tmux('capture-pane', '-p', '-t', 'w')).toContain(`left ${folder}; the run goes on`);
    } finally {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    }
  });
});
