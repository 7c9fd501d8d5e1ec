// The ETA of a run in phases (SFT, then GRPO or PPO), each with a step budget and maybe a time limit.
// Pure and free of Ink: the runner's plain progress lines import it too (`@saccade/tui/eta`).

/** A training phase as the run plans it. */
export interface PhasePlan {
  steps: number;
  /** The phase stops here even with steps left (a time guard). */
  timeLimitSeconds?: number;
  /** Examples or episodes one step trains on (SFT's batch size; GRPO's prompts × group size; PPO's episodes). */
  episodesPerStep?: number;
  /** A step first plays its episodes with the policy (GRPO, PPO); SFT's examples are given. */
  plays?: boolean;
}

/**
 * How much longer a step that plays its episodes takes than one that trains on as many given
 * examples: measured on the 2-core machine, a GRPO step of the default run (128 episodes) took
 * 5.6 s where an SFT step (32 examples) took 0.57 s, and on the visual-search recipe 26 s (64
 * episodes) where SFT took 5 s: about 2.5× per episode both times.
 */
const PLAYING_COST = 2.5;

/** A later phase's step in units of the current phase's, before the later phase has a rate of its own (undefined: the plans do not say). */
function stepCost(later: PhasePlan, current: PhasePlan): number | undefined {
  if (!later.episodesPerStep || !current.episodesPerStep) return undefined;
  return (later.episodesPerStep / current.episodesPerStep) * (later.plays && !current.plays ? PLAYING_COST : 1);
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
 * later phase its steps at the current rate scaled by what its steps hold (more episodes, played
 * rather than given: `stepCost`), but no longer than its time limit (where the plans do not say
 * what steps hold: its time limit, or its steps at the current rate). Undefined until the current
 * phase has a rate.
 */
export function remainingSeconds(phases: readonly PhasePlan[], position: PhasePosition): number | undefined {
  const current = phases[position.index];
  const rate = position.secondsPerStep;
  if (current === undefined || rate === undefined || !Number.isFinite(rate)) return undefined;
  const byRate = rate * Math.max(0, position.startStep + current.steps - position.step);
  let left = current.timeLimitSeconds === undefined ? byRate : Math.min(byRate, Math.max(0, current.timeLimitSeconds - position.seconds));
  for (const later of phases.slice(position.index + 1)) {
    const cost = stepCost(later, current);
    // Without what its steps hold, a guarded phase is taken to run to its guard, an unguarded one at the current rate.
    if (later.timeLimitSeconds === undefined) left += rate * (cost ?? 1) * later.steps;
    else left += cost === undefined ? later.timeLimitSeconds : Math.min(rate * cost * later.steps, later.timeLimitSeconds);
  }
  return left;
}

/** The phases a `saccade train` config plans: SFT, then its algorithm's phase (steps 0 leave a phase out). */
export function phasesFromConfig(config: unknown): PhasePlan[] | undefined {
  if (typeof config !== 'object' || config === null) return undefined;
  const record = config as Record<string, unknown>;
  const algorithm = typeof record.algorithm === 'string' ? record.algorithm : 'grpo';
  const phases: PhasePlan[] = [];
  for (const [name, section] of [['sft', record.sft], [algorithm, record[algorithm]]] as const) {
    if (typeof section !== 'object' || section === null) continue;
    const plan = phasePlan(name, section as Record<string, unknown>);
    if (plan) phases.push(plan);
  }
  return phases.length > 0 ? phases : undefined;
}

/**
 * A phase's plan from its config section (`sft`, `grpo` or `ppo`): its steps, its time guard and
 * what a step holds; undefined for a phase without steps.
 */
export function phasePlan(phase: string, section: Readonly<Record<string, unknown>>): PhasePlan | undefined {
  const { steps, timeLimitSeconds } = section;
  if (typeof steps !== 'number' || steps <= 0) return undefined;
  const episodes = episodesPerStep(phase, section);
  return {
    steps,
    ...(typeof timeLimitSeconds === 'number' ? { timeLimitSeconds } : {}),
    ...(episodes !== undefined ? { episodesPerStep: episodes, plays: phase !== 'sft' } : {}),
  };
}

/** Examples or episodes a step of a phase trains on, from its config section (undefined where it does not say). */
function episodesPerStep(phase: string, section: Readonly<Record<string, unknown>>): number | undefined {
  const number = (key: string) => (typeof section[key] === 'number' ? (section[key] as number) : undefined);
  if (phase === 'sft') return number('batchSize');
  if (phase === 'ppo') return number('episodesPerStep');
  const prompts = number('promptsPerStep');
  const group = number('groupSize');
  return prompts !== undefined && group !== undefined ? prompts * group : undefined;
}
