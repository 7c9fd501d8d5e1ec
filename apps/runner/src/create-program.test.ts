import { describe, expect, test } from 'vitest';
import { runCli } from './create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
import type { Output } from './output';

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('saccade envs', () => {
  test('list prints the built-in grid envs', async () => {
    const output = capture();
    const { exitCode } = await runCli(['envs', 'list', '--json'], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const ids = (JSON.parse(output.out.join('')) as { id: string }[]).map((row) => row.id);
    expect(ids).toEqual(expect.arrayContaining(['saccade/FrozenLake-v1', 'saccade/Sokoban-v1']));
  });

  test('check passes for FrozenLake', async () => {
    const output = capture();
    const { exitCode } = await runCli(['envs', 'check', 'saccade/FrozenLake-v1'], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(output.out).toEqual(['saccade/FrozenLake-v1: passes checkEnv']);
  });

  test('an unknown env id is a usage error that names the known ids', async () => {
    const output = capture();
    const { exitCode } = await runCli(['envs', 'check', 'saccade/FrozenLak-v1'], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain('saccade/FrozenLake-v1');
  });

  test('an unknown command is a usage error', async () => {
    const output = capture();
    const { exitCode } = await runCli(['fly'], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain("unknown command 'fly'");
  });
});
