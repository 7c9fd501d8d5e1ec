import { join } from 'node:path';
import { TensorBoardWriter } from '@saccade/runs';
import type { RunEvent } from '@saccade/spec';
import { judgeMetrics, lastJudgeError, withJudgeMetrics } from './judge/env-judges';

/** What train and eval add to their event stream, between the trainer and the run folder. */
export interface RunEventHooks {
  /** Passes `event` (with the judges' counts in its metrics) and any warning to `next`, and writes its metrics to TensorBoard. */
  emit(event: RunEvent, next: (event: RunEvent) => void): void;
  /** Closes the TensorBoard file. */
  close(): void;
}

/**
 * The CLI's hooks on a run's events: the LLM judges' counts join the metrics (a judge that stops
 * answering shows as `judgeFailures`, and its first failure as a warning), and with a TensorBoard
 * folder every metric row goes to `<folder>/<run name>/events.out.tfevents.*` as it happens.
 */
export function createRunEventHooks(options: { tensorboard?: string | undefined; runName: string }): RunEventHooks {
  const writer = options.tensorboard === undefined ? undefined : TensorBoardWriter.open(join(options.tensorboard, options.runName));
  // Counts are the run's own: a process that runs several (tests, a sweep) keeps its judges.
  const since = judgeMetrics() ?? {};
  let failuresReported = 0;
  return {
    emit(event, next) {
      const annotated = withJudgeMetrics(event, since);
      next(annotated);
      writer?.writeRunEvent(annotated);
      const failures = 'metrics' in annotated ? annotated.metrics['judgeFailures'] : undefined;
      if (failures !== undefined && failures > failuresReported) {
        next({ type: 'log', time: new Date().toISOString(), level: 'warn', message: `the LLM judge failed ${failures - failuresReported} time(s) since the last report (those terms scored 0): ${lastJudgeError() ?? 'no message'}` });
        failuresReported = failures;
      }
    },
    close() {
      writer?.close();
    },
  };
}
