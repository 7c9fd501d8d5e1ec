import { lookingLine, sampledLine, truncatedPromptsLine } from '@saccade/runs';
import type { RunEvent } from '@saccade/spec';
import { remainingSeconds, type PhasePlan } from '@saccade/tui/eta';
import type { Output } from './output';

export interface ProgressPrinterSettings {
  totalSteps: number;
  /** The run's phases in order (default: one phase of `totalSteps`), for an ETA that knows their time limits. */
  phases?: readonly PhasePlan[];
  /** The step the first of `phases` started after (a resumed run's phase start; default 0). */
  firstPhaseStart?: number;
  /** On a terminal one status line is redrawn in place; otherwise plain lines at most this often. */
  interactive: boolean;
  intervalSeconds?: number;
  /** Redraws the status line (terminal only). */
  writeStatus?: (line: string) => void;
}

const LEVEL_PREFIXES = { debug: '', info: '', warn: 'warning: ', error: 'error: ' } as const;

/** Turns run events into what a person watching a headless run wants: rate, ETA, eval results, warnings. */
export function createProgressPrinter(output: Output, settings: ProgressPrinterSettings): (event: RunEvent) => void {
  const interval = (settings.intervalSeconds ?? 10) * 1000;
  let lastPrinted = 0;
  // The rate comes from the updates alone: data collection before step 1 would skew the ETA.
  let firstUpdate: { step: number; seconds: number } | undefined;
  // Each training phase (SFT, then GRPO) counts its seconds from 0: carry the earlier phases'
  // time in `offset`, and measure the rate afresh in the new phase (its steps cost differently).
  let offset = 0;
  let lastSeconds = 0;
  const phases = settings.phases ?? [{ steps: settings.totalSteps }];
  let phase = 0;
  let phaseStart = settings.firstPhaseStart ?? 0;
  return (event) => {
    if (event.type === 'update-end') {
      const { loss = NaN, tokensPerSecond = NaN, seconds = 0 } = event.metrics;
      if (seconds < lastSeconds) {
        offset += lastSeconds;
        firstUpdate = undefined;
        if (phase + 1 < phases.length) {
          phase++;
          // A later phase starts where the one before ended (early, on its time limit, or on time).
          phaseStart = event.step - 1;
        }
      }
      lastSeconds = seconds;
      firstUpdate ??= { step: event.step, seconds };
      const steps = event.step - firstUpdate.step;
      const perStep = steps > 0 ? (seconds - firstUpdate.seconds) / steps : undefined;
      const eta = remainingSeconds(phases, { index: phase, startStep: phaseStart, step: event.step, seconds, secondsPerStep: perStep }) ?? NaN;
      // A policy step whose groups all scored alike trains on nothing: no loss, no tokens.
      const trained = Number.isFinite(loss) && tokensPerSecond > 0;
      const work = trained ? `loss ${loss.toFixed(4)}  ${Math.round(tokensPerSecond)} tokens/s` : 'no update (nothing to train on)';
      const line = `step ${event.step}/${settings.totalSteps}  ${work}  ${formatDuration(offset + seconds)} elapsed, ETA ${formatDuration(eta)}`;
      if (settings.interactive && settings.writeStatus) settings.writeStatus(line);
      else if (Date.now() - lastPrinted >= interval) {
        lastPrinted = Date.now();
        output.log(line);
      }
    } else if (event.type === 'eval-end') {
      if (settings.interactive && settings.writeStatus) settings.writeStatus('');
      const { success = 0, formatRate = 0, meanReward = 0, episodes = 0 } = event.metrics;
      const looking = lookingLine(event.metrics);
      const sampled = sampledLine(event.metrics);
      const cut = truncatedPromptsLine(event.metrics);
      output.log(
        `eval @ step ${event.step}: success ${(success * 100).toFixed(1)}% of ${episodes} held-out episodes${sampled === undefined ? '' : `, ${sampled}`}, format ${(formatRate * 100).toFixed(1)}%, mean reward ${meanReward.toFixed(2)}${cut === undefined ? '' : `, ${cut}`}${looking === undefined ? '' : `; ${looking}`}`,
      );
    } else if (event.type === 'log' || event.type === 'checkpoint-saved') {
      if (settings.interactive && settings.writeStatus) settings.writeStatus('');
      // Warnings (a time limit's cut, failed episodes) say so, as the TUI's log does.
      output.log(event.type === 'log' ? `${LEVEL_PREFIXES[event.level]}${event.message}` : `checkpoint saved: ${event.path}`);
    }
  };
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  // Round the whole first, so 179.6 s reads 3m00s, not 2m60s. (The TUI has its own, with hours:
  // this module stays free of Ink, which the plain and headless paths never load.)
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes > 0 ? `${minutes}m${String(rest).padStart(2, '0')}s` : `${rest}s`;
}

export interface EpisodeProgressSettings {
  /** Episodes the run plans in all (a resumed run counts those already done). */
  total: number;
  /** Episodes done before this process started (a resume): left out of the rate. */
  alreadyDone?: number;
  interactive: boolean;
  intervalSeconds?: number;
  writeStatus?: (line: string) => void;
  /** Clock in ms (tests). */
  now?: () => number;
}

/**
 * Progress of an evaluation, one call per finished episode: a status line redrawn in place on a
 * terminal, plain lines at most every `intervalSeconds` otherwise, each with the running success
 * rate, episodes per second and ETA. `finish()` clears the status line.
 */
export function createEpisodeProgress(output: Output, settings: EpisodeProgressSettings): { episodeDone: (success: boolean) => void; finish: () => void } {
  const now = settings.now ?? Date.now;
  const interval = (settings.intervalSeconds ?? 10) * 1000;
  const started = now();
  const before = settings.alreadyDone ?? 0;
  let done = before;
  let successes = 0;
  let counted = 0;
  let lastPrinted = started;
  return {
    episodeDone(success) {
      done++;
      counted++;
      if (success) successes++;
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 ? (done - before) / seconds : NaN;
      const eta = (settings.total - done) / rate;
      const line = `episodes ${done}/${settings.total}  success ${((successes / counted) * 100).toFixed(1)}%  ${Number.isFinite(rate) ? rate.toFixed(1) : '?'} episodes/s  ${formatDuration(seconds)} elapsed, ETA ${formatDuration(eta)}`;
      if (settings.interactive && settings.writeStatus) settings.writeStatus(line);
      else if (now() - lastPrinted >= interval || done === settings.total) {
        lastPrinted = now();
        output.log(line);
      }
    },
    finish() {
      if (settings.interactive && settings.writeStatus) settings.writeStatus('');
    },
  };
}
