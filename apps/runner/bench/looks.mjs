#!/usr/bin/env node
// Where a searching policy's looks went, from a run's stored held-out episodes
// (trajectories/evaluations.jsonl; greedy evaluations only): for each look of an episode (its 1st,
// 2nd, … call), how many episodes made it, how many had not yet held the target before it, and
// how many of those it found the target in; how the episodes ended (looks made, the look that first
// held the target, success); how many episodes made each number of looks, and in how many a later
// look held the target again in a smaller region (a closer look); and success after a hit and
// without one. Prints one JSON object.
//
//   node apps/runner/bench/looks.mjs <run folder> [--step N]   (default: the last evaluated step)
//
// With --training, the stored training rollouts of step N instead (trajectories/training.jsonl: the
// sampled groups of every episodeStore.trainEvery-th RL step). `answers` counts each final
// `<answer>…</answer>` text, right and wrong (the env's success), so a class the policy stops
// giving, or one it gives as its usual wrong guess, shows; `topFirstLooks` the points (or cells)
// first looks named most.
//
//   node apps/runner/bench/looks.mjs <run folder> --training --step 121
import { readJsonLines, TRAJECTORY_FILES, trajectoriesFile } from '@saccade/runs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { step: { type: 'string' }, training: { type: 'boolean' } } });
if (positionals.length !== 1) {
  console.error('usage: looks.mjs <run folder> [--step N] [--training]');
  process.exit(2);
}
const file = trajectoriesFile(positionals[0], values.training ? TRAJECTORY_FILES.training : TRAJECTORY_FILES.evaluations);
// Greedy evaluations only: a sampled evaluation's ids start with `v`, the greedy one's with `e`.
const isWanted = (episode) => (values.training ? episode.training?.phase !== 'eval' : episode.training?.phase === 'eval' && String(episode.id).startsWith('e'));
const episodes = readJsonLines(file).filter(isWanted);
if (episodes.length === 0) throw new Error(`${file} holds no ${values.training ? 'training' : 'greedy evaluation'} episodes`);
const steps = [...new Set(episodes.map((episode) => episode.training.step))].sort((a, b) => a - b);
const step = values.step === undefined ? steps.at(-1) : Number(values.step);
if (!steps.includes(step)) throw new Error(`--step: expected one of the evaluated steps ${steps.join(', ')}; got ${values.step}`);

const looks = [];
const endings = new Map();
/** Final answer text → {right, wrong}. */
const answers = new Map();
/** The first look's point or cell, as the call wrote it → episodes. */
const firstPoints = new Map();
// Episodes by how many looks they made (the two-look level asks for the share with two).
const byLooks = new Map();
// Episodes where a later look held the target again in a smaller region than the first that held it (a closer look).
let closerHits = 0;
let hits = 0;
let solvedWithHit = 0;
let solvedWithoutHit = 0;
const evaluated = episodes.filter((episode) => episode.training.step === step);
for (const episode of evaluated) {
  // A turn with tool calls is a look; it held the target when one of its calls' regions did.
  const calls = episode.turns.filter((turn) => Array.isArray(turn.info?.toolCalls) && turn.info.toolCalls.length > 0);
  const held = calls.map((turn) => turn.info.toolCalls.some((call) => call.hit === true));
  const first = held.indexOf(true);
  byLooks.set(calls.length, (byLooks.get(calls.length) ?? 0) + 1);
  const side = (call) => Math.max(call.region[2] - call.region[0], call.region[3] - call.region[1]);
  const hitSides = calls.flatMap((turn) => turn.info.toolCalls.filter((call) => call.hit === true && Array.isArray(call.region)).map(side));
  if (hitSides.some((value) => value < hitSides[0])) closerHits++;
  calls.forEach((_, index) => {
    looks[index] ??= { look: index + 1, made: 0, beforeAHit: 0, found: 0 };
    looks[index].made++;
    if (first < 0 || index <= first) looks[index].beforeAHit++;
    if (index === first) looks[index].found++;
  });
  // The env's own verdict (a tool reward can make a failed episode's return positive).
  const success = episode.turns.some((turn) => turn.info?.metrics?.success === true);
  if (first >= 0) {
    hits++;
    if (success) solvedWithHit++;
  } else if (success) solvedWithoutHit++;
  const point = calls[0]?.info.toolCalls[0]?.arguments?.coordinate;
  if (Array.isArray(point) && point.length === 2) firstPoints.set(point.join(','), (firstPoints.get(point.join(',')) ?? 0) + 1);
  const answer = /<answer>([\s\S]*?)<\/answer>/.exec(episode.turns.at(-1)?.action ?? '')?.[1]?.trim() ?? '(none)';
  const tally = answers.get(answer) ?? { right: 0, wrong: 0 };
  tally[success ? 'right' : 'wrong']++;
  answers.set(answer, tally);
  const key = `${calls.length} looks, ${first < 0 ? 'no hit' : `hit at look ${first + 1}`}, ${success ? 'solved' : 'failed'}`;
  endings.set(key, (endings.get(key) ?? 0) + 1);
}
const rate = (part, whole) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
console.log(
  JSON.stringify(
    {
      run: positionals[0],
      step,
      episodes: evaluated.length,
      success: rate(solvedWithHit + solvedWithoutHit, evaluated.length),
      targetHitRate: rate(hits, evaluated.length),
      successWithHit: rate(solvedWithHit, hits),
      closerLookHeldTarget: rate(closerHits, evaluated.length),
      successWithoutHit: rate(solvedWithoutHit, evaluated.length - hits),
      // Per look: of the episodes still without the target when they made it, the share it found.
      looks: looks.map((look) => ({ ...look, foundRate: rate(look.found, look.beforeAHit) })),
      looksPerEpisode: Object.fromEntries([...byLooks].sort(([a], [b]) => a - b).map(([count, episodes]) => [count, { episodes, share: rate(episodes, evaluated.length) }])),
      endings: Object.fromEntries([...endings].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))),
      // The first look's most named points (a grid pointer's cells), and the share whose row is its column (a row digit that copies the column's).
      topFirstLooks: Object.fromEntries([...firstPoints].sort(([, a], [, b]) => b - a).slice(0, 8)),
      firstLookRowEqualsColumn: rate([...firstPoints].filter(([key]) => key.split(',')[0] === key.split(',')[1]).reduce((sum, [, count]) => sum + count, 0), evaluated.length),
      answers: Object.fromEntries([...answers].sort(([, a], [, b]) => b.right + b.wrong - (a.right + a.wrong))),
    },
    null,
    2,
  ),
);
