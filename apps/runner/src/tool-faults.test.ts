import { describe, expect, test } from 'vitest';
import { runCli } from './create-program';
import { EXIT_FAILURE, EXIT_USAGE } from './exit-codes';
import type { Output } from './output';

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

const run = async (expression: string, ...flags: string[]) => {
  const output = capture();
  const { exitCode } = await runCli(['tools', 'run', 'calculator', '--input', JSON.stringify({ expression }), ...flags], output);
  return { exitCode, printed: JSON.parse(output.out.join('\n')) as Record<string, unknown> };
};

describe('saccade tools run: a tool that computes too long or too much is a failed call, not a dead process', () => {
  test('format(1, 1e9) fails on the calculator heap limit (it ended Node with a fatal V8 error)', async () => {
    // Which limit stops it first depends on the machine's load: either way the call fails and Node lives.
    const { exitCode, printed } = await run('format(1, 1e9)');
    expect({ exitCode, ok: printed['ok'], kind: printed['kind'] }).toEqual({ exitCode: EXIT_FAILURE, ok: false, kind: 'failed' });
    expect(printed['error']).toMatch(/^"calculator" failed: the expression (needed more than the calculator's 128 MB of memory|did not finish within 5000 ms) and was stopped$/);
  });

  test('fraction(3,7)^100000000 stops at --timeout 1000 (it ran past 120 s)', async () => {
    const started = performance.now();
    expect(await run('fraction(3,7)^100000000', '--timeout', '1000')).toMatchObject({ exitCode: EXIT_FAILURE, printed: { ok: false, kind: 'timeout', error: '"calculator" did not finish within 1000 ms' } });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test('a blank expression is an invalid argument (it answered "undefined")', async () => {
    expect(await run(' ')).toMatchObject({ exitCode: EXIT_USAGE, printed: { ok: false, kind: 'invalid-arguments', error: 'invalid arguments for "calculator": expression: expected a math expression, received an empty one' } });
  });
});
