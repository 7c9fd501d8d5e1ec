import { checkTool, runTool } from '@saccade/core';
import { describe, expect, it } from 'vitest';
import { calculatorTool } from './calculator-tool';

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

  it('passes checkTool', async () => {
    expect(await checkTool(calculatorTool, { sampleInput: { expression: '1 + 1' } })).toEqual({ ok: true, toolName: 'calculator', failures: [] });
  });
});
