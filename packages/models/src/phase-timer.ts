import { AsyncLocalStorage } from 'node:async_hooks';

/** Wall-clock milliseconds a phase was in progress, and how often it started. */
export interface PhaseTotal {
  ms: number;
  calls: number;
}

/** A phase's totals by path: its name after the names of the phases it ran inside, `/`-joined (`update/forward`). */
export type PhaseTotals = Record<string, PhaseTotal>;

/** What a timer measured since the last `take`: this thread's phases, and those the data-parallel workers reported. */
export interface PhaseSnapshot {
  phases: PhaseTotals;
  /** The workers' phases, summed over the workers and their requests. */
  workers: PhaseTotals;
}

/**
 * Where a thread's time goes, by named phase. A phase's path comes from the phases open where it
 * starts (through awaits too: the context is async-local), so the model's forward pass is
 * `update/forward` in a training step and `play/generate/prefill` in a rollout. A phase in progress
 * several times at once (concurrent env steps) counts the wall time while any of them runs.
 *
 * On the wasm and cpu backends a kernel runs when its op is called, so the wall time around a
 * region is that region's compute: timing needs no syncs and changes no results.
 */
export class PhaseTimer {
  private readonly context = new AsyncLocalStorage<string>();
  private readonly open = new Map<string, { count: number; since: number }>();
  private phases: PhaseTotals = {};
  private workers: PhaseTotals = {};
  readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** Runs `run` as phase `name` (its result returned as is; a promise's phase ends when it settles). */
  time<T>(name: string, run: () => T): T {
    const path = this.pathOf(name);
    this.enter(path);
    let result: T;
    try {
      result = this.context.run(path, run);
    } catch (error) {
      this.leave(path);
      throw error;
    }
    if (!isPromiseLike(result)) {
      this.leave(path);
      return result;
    }
    return Promise.resolve(result).then(
      (value) => {
        this.leave(path);
        return value;
      },
      (error: unknown) => {
        this.leave(path);
        throw error;
      },
    ) as T;
  }

  /** Adds `ms` the caller measured (e.g. a backward pass inside tf.variableGrads) as phase `name` here. */
  record(name: string, ms: number): void {
    add(this.phases, this.pathOf(name), ms);
  }

  /** Adds a worker's phases (its reply's snapshot). */
  recordWorker(phases: PhaseTotals): void {
    for (const [path, total] of Object.entries(phases)) add(this.workers, path, total.ms, total.calls);
  }

  /** What was measured since the last call; phases still in progress count up to now and go on. */
  take(): PhaseSnapshot {
    const now = this.now();
    for (const [path, entry] of this.open) {
      add(this.phases, path, now - entry.since, 0);
      entry.since = now;
    }
    const snapshot = { phases: this.phases, workers: this.workers };
    this.phases = {};
    this.workers = {};
    return snapshot;
  }

  /** Stops following async contexts (Node keeps its promise hooks on while an AsyncLocalStorage is enabled). */
  close(): void {
    this.context.disable();
  }

  private pathOf(name: string): string {
    const parent = this.context.getStore();
    return parent === undefined ? name : `${parent}/${name}`;
  }

  private enter(path: string): void {
    const entry = this.open.get(path);
    if (entry) entry.count++;
    else this.open.set(path, { count: 1, since: this.now() });
    add(this.phases, path, 0, 1);
  }

  private leave(path: string): void {
    const entry = this.open.get(path);
    if (!entry) return;
    entry.count--;
    if (entry.count > 0) return;
    this.open.delete(path);
    add(this.phases, path, this.now() - entry.since, 0);
  }
}

function add(totals: PhaseTotals, path: string, ms: number, calls = 1): void {
  const total = (totals[path] ??= { ms: 0, calls: 0 });
  total.ms += ms;
  total.calls += calls;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

let active: PhaseTimer | undefined;

/** Makes `timer` the one `timePhase` reports to on this thread (undefined: none, the default). */
export function setPhaseTimer(timer: PhaseTimer | undefined): void {
  active = timer;
}

/** The timer phases report to on this thread, if any. */
export function activePhaseTimer(): PhaseTimer | undefined {
  return active;
}

/** Runs `run` as phase `name` of the active timer; without one, just runs it. */
export function timePhase<T>(name: string, run: () => T): T {
  return active === undefined ? run() : active.time(name, run);
}

/** One row of a phase table: mean milliseconds per step and the share of the step's wall time. */
export interface PhaseRow {
  ms: number;
  share: number;
  /** Starts per step. */
  calls: number;
}

/** A phase table: the mean step's wall time and its phases. */
export interface PhaseTable {
  msPerStep: number;
  /**
   * Phase path → mean per step, depth first, larger first. Under a phase with sub-phases (and at
   * the top level) `(other)` is the time none of them covers, so leaves and `(other)` rows add up
   * to the step; it is negative where sub-phases overlapped.
   */
  phases: Record<string, PhaseRow>;
}

/**
 * Means over steps of each phase's milliseconds, with `(other)` rows (see PhaseTable). Each
 * step's wall time is the whole it is a share of.
 */
export function phaseTable(steps: readonly { wallMs: number; phases: PhaseTotals }[]): PhaseTable {
  const count = Math.max(steps.length, 1);
  const msPerStep = steps.reduce((sum, step) => sum + step.wallMs, 0) / count;
  const means = new Map<string, { ms: number; calls: number }>();
  for (const step of steps) {
    for (const [path, total] of Object.entries(step.phases)) {
      const mean = means.get(path) ?? { ms: 0, calls: 0 };
      mean.ms += total.ms / count;
      mean.calls += total.calls / count;
      means.set(path, mean);
    }
  }
  const children = (parent: string | undefined): string[] =>
    [...means.keys()]
      .filter((path) => (parent === undefined ? !path.includes('/') : path.startsWith(`${parent}/`) && !path.slice(parent.length + 1).includes('/')))
      .sort((a, b) => means.get(b)!.ms - means.get(a)!.ms || a.localeCompare(b));
  const share = (ms: number): number => (msPerStep > 0 ? ms / msPerStep : 0);
  const phases: Record<string, PhaseRow> = {};
  const visit = (parent: string | undefined, parentMs: number): void => {
    const below = children(parent);
    if (below.length === 0) return;
    for (const path of below) {
      const mean = means.get(path)!;
      phases[path] = { ms: mean.ms, share: share(mean.ms), calls: mean.calls };
      visit(path, mean.ms);
    }
    const other = parentMs - below.reduce((sum, path) => sum + means.get(path)!.ms, 0);
    phases[parent === undefined ? '(other)' : `${parent}/(other)`] = { ms: other, share: share(other), calls: 0 };
  };
  visit(undefined, msPerStep);
  return { msPerStep, phases };
}

/** A phase table as indented text lines (milliseconds per step and percent of the step), for people. */
export function formatPhaseTable(table: PhaseTable, title: string): string[] {
  const lines = [`${title}: ${table.msPerStep.toFixed(0)} ms/step`];
  for (const [path, row] of Object.entries(table.phases)) {
    const depth = path.split('/').length - 1;
    const name = `${'  '.repeat(depth + 1)}${path.split('/').at(-1)}`;
    lines.push(`${name.padEnd(40)} ${row.ms.toFixed(1).padStart(9)} ms ${(100 * row.share).toFixed(1).padStart(6)} %`);
  }
  return lines;
}
