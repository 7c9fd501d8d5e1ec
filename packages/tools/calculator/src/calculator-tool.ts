import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { CalculatorProcess } from './calculator-process';

/** Settings of {@link createCalculatorTool}: its name and the limits that keep an expression from hanging or exhausting the process. */
export interface CalculatorToolSettings {
  /** The name the model calls (default `calculator`). */
  name?: string;
  /** Significant digits of the result (default 14, which hides float noise: 0.1 + 0.2 = 0.3). */
  precision?: number;
  /** Longest expression accepted (default 1,000 characters). */
  maxLength?: number;
  /** A call that computes longer is stopped and fails (default 5,000 ms). */
  timeLimitMs?: number;
  /** Heap of the child process that computes; an expression that needs more fails (default 128 MB). */
  memoryLimitMb?: number;
  /** Longest result text (default 100,000 characters). */
  maxResultLength?: number;
}

const input = z.object({
  expression: z.string().trim().min(1, 'expected a math expression, received an empty one').describe('A math expression, e.g. "sqrt(3^2 + 4^2)", "sin(30 deg)", "12.5 cm to inch", "det([1, 2; 3, 4])".'),
});

/**
 * A calculator on mathjs: arithmetic, functions, units, matrices, complex numbers. Only math: the
 * functions that define code, units or parse strings are disabled, and so are assignments, so one
 * call cannot affect the next. It computes in a child process with a time and a memory limit: an
 * expression that would run for minutes or exhaust memory (`fraction(3,7)^100000000`,
 * `format(1, 1e9)`) fails with a message instead of holding or ending the process.
 */
export function createCalculatorTool({ name = 'calculator', precision = 14, maxLength = 1_000, timeLimitMs = 5_000, memoryLimitMb = 128, maxResultLength = 100_000 }: CalculatorToolSettings = {}): Tool<z.infer<typeof input>> {
  const worker = new CalculatorProcess({ precision, timeLimitMs, memoryLimitMb, maxResultLength });
  return defineTool({
    name,
    description: 'Evaluate a math expression (mathjs syntax: + - * / ^, sqrt, sin, log, pi, units like "5 cm to inch", matrices).',
    inputSchema: input,
    async execute({ expression }, { signal }) {
      if (expression.length > maxLength) throw new Error(`expected an expression of at most ${maxLength} characters, received ${expression.length}`);
      return { text: await worker.evaluate(expression, signal) };
    },
  });
}

/** The calculator with default settings. */
export const calculatorTool = createCalculatorTool();
