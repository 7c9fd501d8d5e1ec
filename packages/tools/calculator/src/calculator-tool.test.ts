import { checkTool, runTool } from '@saccade/core';
import { describe, expect, it } from 'vitest';
import { calculatorTool, createCalculatorTool } from './calculator-tool';

const calc = async (expression: string) => runTool(calculatorTool, { expression });

describe('calculator', () => {
  it('computes exact expected values', async () => {
    const cases: Array<[string, string]> = [
      ['2 + 3 * 4', '14'],
      ['0.1 + 0.2', '0.3'],
      ['sqrt(3^2 + 4^2)', '5'],
      ['sin(30 deg)', '0.5'],
      ['12.5 cm to inch', '4.9212598425197 inch'],
      ['det([1, 2; 3, 4])', '-2'],
      ['(45 - 40) / 40 * 100', '12.5'],
      ['sqrt(-4)', '2i'],
      ['fraction(1, 3) + fraction(1, 6)', '1/2'],
    ];
    for (const [expression, expected] of cases) expect(await calc(expression)).toMatchObject({ ok: true, result: { text: expected } });
  });

  it('allows only math', async () => {
    expect(await calc('import({x: 1})')).toMatchObject({ ok: false, message: '"calculator" failed: the function import is not available in the calculator' });
    expect(await calc('createUnit("foo")')).toMatchObject({ ok: false, message: '"calculator" failed: the function createUnit is not available in the calculator' });
    expect(await calc('evaluate("1 + 1")')).toMatchObject({ ok: false, message: '"calculator" failed: the function evaluate is not available in the calculator' });
    expect(await calc('f(x) = x^2')).toMatchObject({ ok: false, message: '"calculator" failed: expected an expression, received an assignment (f(x) = x ^ 2); write the value directly' });
    expect(await calc('x = 5')).toMatchObject({ ok: false });
    expect(await calc('ones(100000, 100000)')).toMatchObject({ ok: false, message: '"calculator" failed: the function ones is not available in the calculator' });
    expect(await calc('2 +')).toMatchObject({ ok: false, message: '"calculator" failed: could not parse "2 +": Unexpected end of expression (char 4)' });
    expect(await calc('x + 1')).toMatchObject({ ok: false, message: '"calculator" failed: Undefined symbol x' });
  });

  it('stops an expression past its time limit and keeps working', async () => {
    const quick = createCalculatorTool({ timeLimitMs: 1_500 });
    const started = performance.now();
    expect(await runTool(quick, { expression: 'fraction(3,7)^100000000' })).toMatchObject({
      ok: false,
      kind: 'failed',
      message: '"calculator" failed: the expression did not finish within 1500 ms and was stopped',
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await runTool(quick, { expression: '6 * 7' })).toMatchObject({ ok: true, result: { text: '42' } });
  });

  it("honours runTool's time limit: the call is stopped, not left running", async () => {
    const started = performance.now();
    expect(await runTool(calculatorTool, { expression: 'fraction(3,7)^100000000' }, { timeoutMs: 1_000 })).toMatchObject({ ok: false, kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await calc('2^10')).toMatchObject({ ok: true, result: { text: '1024' } });
  });

  it('an expression that exhausts memory fails instead of ending the process', async () => {
    const result = await calc('format(1, 1e9)');
    expect(result).toMatchObject({ ok: false, kind: 'failed' });
    // On a loaded machine the garbage collector's last attempts can outlast the 5 s limit: either limit is a stop.
    expect(result.ok ? '' : result.message).toMatch(/^"calculator" failed: the expression (needed more than the calculator's 128 MB of memory|did not finish within 5000 ms) and was stopped$/);
    expect(await calc('1 + 1')).toMatchObject({ ok: true, result: { text: '2' } });
  });

  it('refuses an empty expression', async () => {
    expect(await calc(' ')).toMatchObject({ ok: false, kind: 'invalid-arguments', message: 'invalid arguments for "calculator": expression: expected a math expression, received an empty one' });
    expect(await calc('')).toMatchObject({ ok: false, kind: 'invalid-arguments' });
  });

  it('passes checkTool', async () => {
    expect(await checkTool(calculatorTool, { sampleInput: { expression: '1 + 1' } })).toEqual({ ok: true, toolName: 'calculator', failures: [] });
  });
});
