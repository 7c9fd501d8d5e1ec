import type { RunEvent, Trajectory } from '@saccade/spec';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPaths, trajectoriesFile } from '@saccade/runs';

/** The recorded run the tests replay (made by make-fixture-run.mjs). */
export const FIXTURE_RUN = join(dirname(fileURLToPath(import.meta.url)), 'run');

const readLines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export const fixtureEvents = (): RunEvent[] => readLines<RunEvent>(runPaths(FIXTURE_RUN).events);
export const fixtureTrajectories = (): Trajectory[] => readLines<Trajectory>(trajectoriesFile(FIXTURE_RUN, 'rollout-0001'));
