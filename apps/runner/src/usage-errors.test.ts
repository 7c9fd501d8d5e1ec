import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  test('--env-options the env does not take', async () => {
    const output = capture();
    const argv = ['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '1', '--out', scratch, '--env-options'];
    expect((await runCli([...argv, '{"size": -5, "zzz": 1}'], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err).toEqual(['Invalid argument size: expected an integer ≥ 2 and ≤ 64, received -5.']);
    const unknown = capture();
    expect((await runCli([...argv, '{"zzz": 1}'], unknown)).exitCode).toBe(EXIT_USAGE);
    expect(unknown.err.join('\n')).toMatch(/^Invalid argument zzz: expected an option of saccade\/FrozenLake-v1: observation, format, /);
  });

  describe('data convert and export', () => {
    const chart = join(scratch, 'chart');
    mkdirSync(join(chart, 'png'), { recursive: true });
    const input = join(chart, 'test_human.json');
    writeFileSync(input, JSON.stringify([{ imgname: 'missing.png', query: 'Q?', label: '1' }]));
    const notJson = join(chart, 'broken.json');
    writeFileSync(notJson, '[{"imgname": ');

    test.each([
      [join(aFile, 'tasks.jsonl'), `--output: cannot create the folder ${aFile}: ${aFile} is a file, not a folder`],
      ['/proc/saccade-usage-test.jsonl', '--output: cannot write /proc/saccade-usage-test.jsonl: /proc does not allow new files'],
      [chart, `--output: expected a .jsonl task file, received ${chart} (export it to Parquet with saccade data export)`],
    ])('convert --output %s', async (file, message) => {
      const output = capture();
      const { exitCode } = await runCli(['data', 'convert', 'chartqa', '--input', input, '--output', file, '--skip-invalid'], output);
      expect({ exitCode, err: output.err }).toEqual({ exitCode: EXIT_USAGE, err: [message] });
    });

    test('export --output under a file', async () => {
      const output = capture();
      const { exitCode } = await runCli(['data', 'export', '--input', input, '--output', join(aFile, 'x.parquet')], output);
      expect({ exitCode, err: output.err }).toEqual({ exitCode: EXIT_USAGE, err: [`--output: cannot create the folder ${aFile}: ${aFile} is a file, not a folder`] });
    });

    test('with --skip-invalid no message suggests --skip-invalid, and a run that writes nothing leaves no file', async () => {
      const tasks = join(scratch, 'none.jsonl');
      const skipped = capture();
      expect((await runCli(['data', 'convert', 'chartqa', '--input', input, '--output', tasks, '--skip-invalid'], skipped)).exitCode).toBe(EXIT_USAGE);
      expect(skipped.err.at(-1)).toBe(`no task was written from ${input} (all 1 records were invalid); ${tasks} was not written`);
      expect(existsSync(tasks)).toBe(false);
      const broken = capture();
      expect((await runCli(['data', 'convert', 'chartqa', '--input', notJson, '--output', tasks, '--skip-invalid'], broken)).exitCode).toBe(EXIT_USAGE);
      expect(broken.err.join('\n')).toMatch(/\nnothing was written; fix the input$/);
      expect(broken.err.join('\n')).not.toContain('pass --skip-invalid');
    });
  });
});
