// The ETA of a run in phases (SFT, then GRPO or PPO), each with a step budget and maybe a time limit.
// Pure and free of Ink: the runner's plain progress lines import it too (`@saccade/tui/eta`).

/** A training phase as the run plans it. */
export interface PhasePlan {
  steps: number;
  /** The phase stops here even with steps left (the default run's GRPO ends this way). */
  timeLimitSeconds?: number;
}

/** Where the run stands in its current phase. */
export interface PhasePosition {
  /** Index into the plan. */
  index: number;
  /** The step the phase started after (0 for the first; a later phase starts where the one before ended). */
  startStep: number;
  step: number;
  /** The phase's own clock (its `update-end` events' `seconds`). */
  seconds: number;
  /** The phase's rate so far; undefined before its second update. */
  secondsPerStep: number | undefined;
}

/**
 * Seconds left: the current phase at its own rate, but no longer than its time limit allows; each
 * later phase its time limit (or, without one, its steps at the current rate). Undefined until the
 * current phase has a rate.
 */
export function remainingSeconds(phases: readonly PhasePlan[], position: PhasePosition): number | undefined {
  const current = phases[position.index];
  const rate = position.secondsPerStep;
  if (current === undefined || rate === undefined || !Number.isFinite(rate)) return undefined;
  const byRate = rate * Math.max(0, position.startStep + current.steps - position.step);
  let left = current.timeLimitSeconds === undefined ? byRate : Math.min(byRate, Math.max(0, current.timeLimitSeconds - position.seconds));
  for (const later of phases.slice(position.index + 1)) left += later.timeLimitSeconds ?? rate * later.steps;
  return left;
}

/** The phases a `saccade train` config plans: SFT, then its algorithm's phase (steps 0 leave a phase out). */
export function phasesFromConfig(config: unknown): PhasePlan[] | undefined {
  if (typeof config !== 'object' || config === null) return undefined;
  const record = config as Record<string, unknown>;
  const algorithm = typeof record.algorithm === 'string' ? record.algorithm : 'grpo';
  const phases: PhasePlan[] = [];
  for (const section of [record.sft, record[algorithm]]) {
    if (typeof section !== 'object' || section === null) continue;
    const { steps, timeLimitSeconds } = section as Record<string, unknown>;
    if (typeof steps !== 'number' || steps <= 0) continue;
    phases.push(typeof timeLimitSeconds === 'number' ? { steps, timeLimitSeconds } : { steps });
  }
  return phases.length > 0 ? phases : undefined;
}
