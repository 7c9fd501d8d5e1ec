import { InvalidArgumentError } from '@saccade/spec';

/** Difficulty runs from 0 (easiest) to 1 (hardest); the default sits in the middle. */
export const DEFAULT_DIFFICULTY = 0.5;

/** The difficulty (0.5 when undefined), or an InvalidArgumentError unless it is a number from 0 to 1. */
export function checkDifficulty(difficulty: unknown): number {
  if (difficulty === undefined) return DEFAULT_DIFFICULTY;
  if (typeof difficulty === 'number' && Number.isFinite(difficulty) && difficulty >= 0 && difficulty <= 1) return difficulty;
  throw new InvalidArgumentError({ argument: 'difficulty', expected: 'a number from 0 (easiest) to 1 (hardest)', value: difficulty });
}

/** Linear interpolation from `easy` (difficulty 0) to `hard` (difficulty 1). */
export const lerp = (difficulty: number, easy: number, hard: number): number => easy + (hard - easy) * difficulty;

/** A whole number from `easy` to `hard` that moves in even steps with difficulty. */
export const levelInt = (difficulty: number, easy: number, hard: number): number => Math.round(lerp(difficulty, easy, hard));
