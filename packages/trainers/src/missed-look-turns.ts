import type { Trajectory } from '@saccade/spec';

/**
 * The turns of an episode whose looks all missed: turns with tool calls scored against the target
 * (`hit` in the tool-use wrapper's call records) none of which held it. In a searching teacher's
 * demonstrations (VisualSearch's `oracleDecoys`) these are the looks at decoys: SFT that leaves
 * them out (`maskMissedLooks`) trains the pointer on the target's cell only, while the episodes
 * still show a miss followed by another look (the turn after a decoy's crop keeps its loss).
 */
export function missedLookTurns(trajectory: Trajectory): Set<number> {
  const missed = new Set<number>();
  trajectory.turns.forEach((turn, index) => {
    const calls = turn.info['toolCalls'];
    if (!Array.isArray(calls) || calls.length === 0) return;
    const hits = (calls as { hit?: unknown }[]).map((call) => call?.hit);
    if (hits.every((hit) => hit === false)) missed.add(index);
  });
  return missed;
}
