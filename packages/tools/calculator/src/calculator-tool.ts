import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { all, create, type MathNode } from 'mathjs';
import { z } from 'zod';

export interface CalculatorToolSettings {
  /** The name the model calls (default `calculator`). */
  name?: string;
  /** Significant digits of the result (default 14, which hides float noise: 0.1 + 0.2 = 0.3). */
  precision?: number;
  /** Longest expression accepted (default 1,000 characters). */
  maxLength?: number;
}

// Functions that reach outside arithmetic (define code, units or parsers) or allocate without bound.
const DISABLED = ['import', 'createUnit', 'evaluate', 'parse', 'compile', 'simplify', 'derivative', 'resolve', 'reviver', 'replacer', 'rationalize', 'chain', 'help', 'config', 'ones', 'zeros', 'identity', 'range', 'resize', 'random', 'randomInt', 'pickRandom'];

/** A mathjs instance with everything but math disabled; its evaluate is kept privately. */
function createSafeMath() {
  const math = create(all!);
  const evaluate = math.evaluate.bind(math);
  const parse = math.parse.bind(math);
  math.import(Object.fromEntries(DISABLED.map((name) => [name, () => { throw new Error(`the function ${name} is not available in the calculator`); }])), { override: true });
  return { math, evaluate, parse };
}

const input = z.object({
  expression: z.string().min(1).describe('A math expression, e.g. "sqrt(3^2 + 4^2)", "sin(30 deg)", "12.5 cm to inch", "det([1, 2; 3, 4])".'),
});

/**
 * A calculator on mathjs: arithmetic, functions, units, matrices, complex numbers. Only math: the
 * functions that define code, units or parse strings are disabled, and so are assignments, so one
 * call cannot affect the next.
 */
export function createCalculatorTool({ name = 'calculator', precision = 14, maxLength = 1_000 }: CalculatorToolSettings = {}): Tool<z.infer<typeof input>> {
  const { math, evaluate, parse } = createSafeMath();
  return defineTool({
    name,
    description: 'Evaluate a math expression (mathjs syntax: + - * / ^, sqrt, sin, log, pi, units like "5 cm to inch", matrices).',
    inputSchema: input,
    async execute({ expression }) {
      if (expression.length > maxLength) throw new Error(`expected an expression of at most ${maxLength} characters, received ${expression.length}`);
      let tree: MathNode;
      try {
        tree = parse(expression);
      } catch (error) {
        throw new Error(`could not parse ${JSON.stringify(expression)}: ${(error as Error).message}`);
      }
      const forbidden = tree.filter((node) => node.type === 'AssignmentNode' || node.type === 'FunctionAssignmentNode');
      if (forbidden.length > 0) throw new Error(`expected an expression, received an assignment (${forbidden[0]!.toString()}); write the value directly`);
      const value: unknown = evaluate(expression, {});
      if (typeof value === 'function') throw new Error('expected a value, received a function');
      return { text: math.format(value as never, { precision }) };
    },
  });
}

/** The calculator with default settings. */
export const calculatorTool = createCalculatorTool();
