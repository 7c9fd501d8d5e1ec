import type { RunEvent, Trajectory } from '@saccade/spec';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded run the tests replay (made by make-fixture-run.mjs). */
export const FIXTURE_RUN = join(dirname(fileURLToPath(import.meta.url)), 'run');

const readLines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export const fixtureEvents = (): RunEvent[] => readLines<RunEvent>(join(FIXTURE_RUN, 'events.jsonl'));
export const fixtureTrajectories = (): Trajectory[] => readLines<Trajectory>(join(FIXTURE_RUN, 'trajectories', 'rollout-0001.jsonl'));
