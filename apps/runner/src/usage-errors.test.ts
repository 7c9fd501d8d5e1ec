import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from './create-program';
import { EXIT_USAGE } from './exit-codes';
import type { Output } from './output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-usage-'));
const aFile = join(scratch, 'a-file');
writeFileSync(aFile, 'not a folder');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

const underFile = join(aFile, 'runs');
const underFileMessage = `--out: cannot create the folder ${underFile}: ${aFile} is a file, not a folder`;

describe('usage errors exit 2 with one clear line, no stack trace', () => {
  test.each([
    ['eval', ['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '1', '--out', underFile]],
    ['train', ['train', '--out', underFile]],
    ['tools run', ['tools', 'run', 'calculator', '--input', '{"expression": "1 + 1"}', '--out', underFile]],
  ])('%s --out under a file', async (_, argv) => {
    const output = capture();
    const { exitCode } = await runCli(argv, output);
    expect({ exitCode, err: output.err }).toEqual({ exitCode: EXIT_USAGE, err: [underFileMessage] });
  });

  test('--out where the file system refuses new folders (/proc, /sys)', async () => {
    const proc = capture();
    expect((await runCli(['tools', 'run', 'calculator', '--input', '{"expression": "1"}', '--out', '/proc/saccade-usage-test'], proc)).exitCode).toBe(EXIT_USAGE);
    expect(proc.err).toEqual(['--out: cannot create the folder /proc/saccade-usage-test: /proc does not allow new folders']);
    const sys = capture();
    expect((await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '1', '--out', '/sys/saccade-usage-test'], sys)).exitCode).toBe(EXIT_USAGE);
    expect(sys.err).toEqual(['--out: cannot create the folder /sys/saccade-usage-test: no permission to write in /sys']);
  });

  test.each([
    [['data', 'convert', 'chartqa', '--bogus'], "error: unknown option '--bogus'"],
    [['data', 'convert', 'chartqa', '--input', 'x.json', '--output', 'y.jsonl', '--bogus'], "error: unknown option '--bogus'"],
    [['tools', 'run', 'calculator', '--bogus'], "error: unknown option '--bogus'"],
    [['eval', '--bogus'], "error: unknown option '--bogus'"],
    [['envs', 'list', '--bogus'], "error: unknown option '--bogus'"],
    [['data', 'convert', 'chartqa', '--output', 'y.jsonl'], "error: required option '--input <path>' not specified"],
  ])('%j', async (argv, message) => {
    const output = capture();
    const { exitCode } = await runCli(argv, output);
    expect({ exitCode, err: output.err }).toEqual({ exitCode: EXIT_USAGE, err: [message] });
  });
});
