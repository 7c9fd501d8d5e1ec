import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

// A LLaVA file as LLaVA's docs lay it out: a JSON array, `image` relative to the file, <image> in the human turn.
const record = (id: string, answer: string, from = 'gpt') => ({ id, image: 'images/board.png', conversations: [{ from: 'human', value: '<image>\nWhere do you go?' }, { from, value: answer }] });
const llava = join(scratch, 'data', 'llava.json');

beforeAll(async () => {
  mkdirSync(join(scratch, 'data', 'images'), { recursive: true });
  writeFileSync(join(scratch, 'data', 'images', 'board.png'), (await encodePng({ data: new Uint8Array(32 * 32 * 3).fill(90), width: 32, height: 32, channels: 3 })).data);
});

const runs = join(scratch, 'runs');
const flags = ['--algorithm', 'sft', '--preset', 'tiny', '--no-oracle', '--steps', '1', '--batch-size', '2', '--eval-every', '1', '--eval-episodes', '1', '--workers', '0', '--out', runs];

describe('saccade train --sft-file: files are read before the run starts', () => {
  test('a bad record is one line naming the file, line and field; exit 2; no run folder is written', async () => {
    writeFileSync(llava, JSON.stringify([record('a', '<answer>Right</answer>'), record('b', 'Left', 'bot')], null, 2));
    const output = capture();
    const { exitCode } = await runCli(['train', '--sft-file', llava, '--name', 'refused', ...flags], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err).toEqual([
      `--sft-file: ${llava}:16: field "conversations[1].from": expected human | gpt | observation | function_call | system, received "bot"; nothing was written (fix the file, or pass --skip-invalid to skip such records)`,
    ]);
    expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
  });

  test('--skip-invalid trains on the good records and reports the count; the setting is kept for --resume', { timeout: 120_000 }, async () => {
    writeFileSync(llava, JSON.stringify([record('a', '<answer>Right</answer>'), record('b', 'Left', 'bot'), record('c', '<answer>Down</answer>')], null, 2));
    const output = capture();
    const { exitCode } = await runCli(['train', '--sft-file', llava, '--skip-invalid', '--name', 'skipping', ...flags], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(output.err).toEqual([`--sft-file: skipped 1 invalid record (first: ${llava}:16: field "conversations[1].from": expected human | gpt | observation | function_call | system, received "bot")`]);
    expect(readFileSync(join(runs, 'skipping', 'config.yaml'), 'utf8')).toContain('sftSkipInvalid: true');
    const updates = readFileSync(join(runs, 'skipping', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string }).filter((event) => event.type === 'update-end');
    expect(updates).toHaveLength(1);
  });

  test('every record skipped and no oracle: nothing to train on is a usage error before the run', async () => {
    writeFileSync(llava, JSON.stringify([record('b', 'Left', 'bot')], null, 2));
    const output = capture();
    const { exitCode } = await runCli(['train', '--sft-file', llava, '--skip-invalid', '--name', 'empty', ...flags], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.at(-1)).toBe(`--sft-file: no record to train on in ${llava} and --no-oracle; nothing was written`);
    expect(existsSync(join(runs, 'empty'))).toBe(false);
  });
});
