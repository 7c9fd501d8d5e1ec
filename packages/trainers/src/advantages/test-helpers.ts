// Test helpers (not exported from index.ts).
import { expect } from 'vitest';

/** Element-wise toBeCloseTo, with a readable failure. */
export function expectClose(actual: ArrayLike<number>, expected: readonly number[], digits = 9): void {
  expect(actual.length).toBe(expected.length);
  Array.from(actual).forEach((x, i) => {
    expect(x, `index ${i}: ${Array.from(actual).join(', ')}`).toBeCloseTo(expected[i] as number, digits);
  });
}
