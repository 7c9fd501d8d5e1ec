import { createAdamOptimizer, loadCheckpoint, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { trainGrpo, trainPpo, trainSft, type EpisodeRecorder, type PolicyEvaluation } from '@saccade/trainers';
import { sftDemonstrations, type SftDemonstrations } from '@saccade/datagen';
import { createNoisyLookingAgent } from '@saccade/agents';
import type { EpisodeContext } from '@saccade/rollout';
import { envFactory } from './env-factory';
import { createEpisodeRecorder } from './episode-recorder';
import { groundedRandomAgentFor, randomAgentFor } from './eval/eval-agent';
import type { LoadedCheckpoint } from '@saccade/models';
import type { RunFolder } from '@saccade/runs';
import type { TrainConfig } from './train-config';
import { phasePlan, type PhasePlan } from '@saccade/tui/eta';

export type Evaluation = PolicyEvaluation & { step: number; seconds: number; phase: 'sft' | 'grpo' | 'ppo' };

export interface TrainRunResult {
  steps: number;
  seconds: number;
  evaluations: Evaluation[];
  /** Phases a time guard stopped before their steps were done (none in a run within its guards). */
  cuts: PhaseCut[];
}

/**
 * A phase its time guard (`timeLimitSeconds`) stopped with steps left: the run's curve from here on
 * is not the config's. Steps are the run's (as metrics.jsonl and the checkpoints count them).
 */
export interface PhaseCut {
  phase: 'sft' | 'grpo' | 'ppo';
  /** The step the phase stopped at. */
  atStep: number;
  /** The step the phase was to end at. */
  ofSteps: number;
  /** The phase's guard. */
  limitSeconds: number;
  /** The phase's own seconds when it stopped (the clock its guard reads). */
  seconds: number;
}

/** A phase's name as the messages spell it. */
const PHASE_NAMES = { sft: 'SFT', grpo: 'GRPO', ppo: 'PPO' } as const;

/**
 * The warning a cut phase gives (the run's event, the progress line, the TUI's log), e.g. `GRPO
 * was cut short by its time limit (grpo.timeLimitSeconds: 330 s): it stopped at step 511 of 600
 * (111 of its 200 steps); this run's curve is not the one its configured steps give`.
 */
export function describeCut(cut: PhaseCut, phaseStart: number): string {
  const within = phaseStart > 0 ? ` (${cut.atStep - phaseStart} of its ${cut.ofSteps - phaseStart} steps)` : '';
  return `${PHASE_NAMES[cut.phase]} was cut short by its time limit (${cut.phase}.timeLimitSeconds: ${cut.limitSeconds} s): it stopped at step ${cut.atStep} of ${cut.ofSteps}${within}; this run's curve is not the one its configured steps give`;
}

/** The cut a phase's warning event carries (`data.cut`), or undefined for any other event. */
export function cutOfEvent(event: RunEvent): PhaseCut | undefined {
  if (event.type !== 'log' || event.level !== 'warn') return undefined;
  const cut = event.data?.['cut'];
  return typeof cut === 'object' && cut !== null && 'phase' in cut && 'atStep' in cut ? (cut as PhaseCut) : undefined;
}

export interface TrainRunOptions {
  emit: (event: RunEvent) => void;
  signal?: AbortSignal;
  /** Awaited between steps (pause, checkpoint-now requests: see createControlReader). */
  betweenSteps?: (step: number) => Promise<{ checkpoint?: boolean } | void>;
}

export interface TrainRunSetup {
  model: VisionLanguageModel;
  /** Where a resumed run goes on from: its checkpoint's step, phase, optimizer. */
  resumeFrom?: { step: number; phase: 'sft' | 'grpo' | 'ppo'; complete: boolean; phaseStart: number; optimizer?: LoadedCheckpoint['optimizer'] };
  /** The SFT files, read before the run folder was made (so that a bad file leaves no run behind). */
  demonstrations?: SftDemonstrations;
}

/**
 * The phases a run still has ahead (as `runTraining` decides them: SFT unless done, then GRPO or
 * PPO), with their steps and time guards, and the step the first of them started after: what the
 * progress lines and the TUI need for an ETA.
 */
export function plannedPhases(config: TrainConfig, resumeFrom?: { step: number; phase: 'sft' | 'grpo' | 'ppo'; complete: boolean; phaseStart: number }): { phases: PhasePlan[]; firstPhaseStart: number } {
  const phases: PhasePlan[] = [];
  const sftPending = config.sft.steps > 0 && (!resumeFrom || (resumeFrom.phase === 'sft' && !resumeFrom.complete));
  const sftPlan = sftPending ? phasePlan('sft', config.sft) : undefined;
  if (sftPlan) phases.push(sftPlan);
  const second = secondPhase(config);
  const inPhase2 = resumeFrom?.phase === config.algorithm && !resumeFrom.complete;
  const secondPlan = second && (inPhase2 || !resumeFrom || resumeFrom.phase === 'sft') ? phasePlan(config.algorithm, second) : undefined;
  if (secondPlan) phases.push(secondPlan);
  // Resumed within the second phase: it started at its phaseStart; resumed after a complete SFT: it starts where SFT ended.
  const firstPhaseStart = sftPending || !resumeFrom ? 0 : inPhase2 ? resumeFrom.phaseStart : resumeFrom.phase === 'sft' ? resumeFrom.step : 0;
  return { phases, firstPhaseStart };
}

/** The settings of the phase after SFT, if the algorithm has one. */
export function secondPhase(config: TrainConfig): { steps: number; timeLimitSeconds?: number | undefined; optimizerState: 'fresh' | 'sft' } | undefined {
  return config.algorithm === 'ppo' ? config.ppo : config.algorithm === 'grpo' ? config.grpo : undefined;
}

/** The model a run starts with: fresh from the config, or the newest checkpoint's (with its optimizer) on resume. */
export async function prepareTrainRun(config: TrainConfig, folder: RunFolder, resume: boolean): Promise<TrainRunSetup> {
  const fresh = VisionLanguageModel.create({ preset: config.model.preset, seed: config.model.seed, ...(config.model.config ? { config: config.model.config } : {}) });
  if (!resume) return { model: fresh };
  const checkpoint = folder.lastCheckpoint();
  if (!checkpoint) return { model: fresh };
  const loaded = await loadCheckpoint(checkpoint.path, { expectedConfig: fresh.config });
  fresh.dispose();
  const { metadata } = checkpoint;
  const phase = metadata['phase'] === 'grpo' || metadata['phase'] === 'ppo' ? metadata['phase'] : 'sft';
  return {
    model: loaded.model,
    resumeFrom: {
      step: checkpoint.step,
      phase,
      complete: metadata['complete'] === true,
      phaseStart: typeof metadata['phaseStart'] === 'number' ? metadata['phaseStart'] : 0,
      ...(loaded.optimizer ? { optimizer: loaded.optimizer } : {}),
    },
  };
}

/**
 * The default pipeline: SFT on the solver's demonstrations, then GRPO from that policy, with one
 * step count across both phases. Each phase runs its configured steps; a phase its time guard
 * stops early is reported as a cut (a warning event with `data.cut`, and in the result). A resumed
 * run continues the phase its checkpoint was in (or starts the next one when that phase had ended)
 * at the checkpoint's step.
 */
export async function runTraining(config: TrainConfig, folder: RunFolder, setup: TrainRunSetup, options: TrainRunOptions): Promise<TrainRunResult> {
  const store = await createEpisodeRecorder(folder.path, config.episodeStore, options.emit);
  try {
    return await runPhases(config, folder, setup, options, store.recorder);
  } finally {
    await store.close();
  }
}

async function runPhases(config: TrainConfig, folder: RunFolder, setup: TrainRunSetup, options: TrainRunOptions, recorder: EpisodeRecorder): Promise<TrainRunResult> {
  const { model, resumeFrom } = setup;
  const started = performance.now();
  const evaluations: Evaluation[] = [];
  const common = {
    envId: config.env.id,
    envOptions: config.env.options,
    createEnv: envFactory({ maxTurns: config.env.maxTurns, tools: config.tools, toolRewards: config.toolRewards, lookingOracle: config.lookingOracle }),
    view: config.policyView,
    historyWindow: config.historyWindow,
    advantageMask: config.advantageMask,
    recorder,
    maxTurns: config.env.maxTurns,
    trainSeeds: config.seeds.train,
    evalSeeds: config.seeds.eval,
    seed: config.seed,
    checkpointFolder: folder.checkpointsPath,
    checkpointEvery: config.checkpointEvery,
    ...(config.targetSuccess === undefined ? {} : { targetSuccess: config.targetSuccess }),
    ...(config.evalSampling === undefined ? {} : { evalSampling: config.evalSampling }),
    ...(config.workers === undefined ? {} : { workers: config.workers }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.betweenSteps ? { betweenSteps: options.betweenSteps } : {}),
  };
  const reached = (): boolean => config.targetSuccess !== undefined && (evaluations.at(-1)?.success ?? 0) >= config.targetSuccess;
  const cuts: PhaseCut[] = [];
  // A phase that ended before its last step without reaching the target stopped on its guard (a
  // stop request throws instead): say so where the run is read, so the curve is not taken for the config's.
  const checkCut = (phase: PhaseCut['phase'], phaseStart: number, ofSteps: number, limitSeconds: number | undefined, result: { steps: number; seconds: number }): void => {
    if (limitSeconds === undefined || result.steps >= ofSteps || reached()) return;
    const cut: PhaseCut = { phase, atStep: result.steps, ofSteps, limitSeconds, seconds: result.seconds };
    cuts.push(cut);
    options.emit({ type: 'log', time: new Date().toISOString(), level: 'warn', step: result.steps, message: describeCut(cut, phaseStart), data: { cut } });
  };

  let step = resumeFrom?.step ?? 0;
  const sftPending = config.sft.steps > 0 && (!resumeFrom || (resumeFrom.phase === 'sft' && !resumeFrom.complete));
  // optimizerState 'sft': the phase after SFT goes on with SFT's Adam (its moments and step count).
  const continueSftOptimizer = secondPhase(config)?.optimizerState === 'sft';
  // SFT's Adam, kept past the phase when the next one continues it (a resumed SFT's is its checkpoint's).
  let sftOptimizer = resumeFrom?.phase === 'sft' ? resumeFrom.optimizer : undefined;
  if (sftPending) {
    const demonstrations = setup.demonstrations ?? (config.sftFiles.length > 0 ? await sftDemonstrations(config.sftFiles, { skipInvalid: config.sftSkipInvalid }) : undefined);
    setup.demonstrations = undefined;
    const { demonstrator, noisyLooking, ...sft } = config.sft;
    if (sftOptimizer === undefined && continueSftOptimizer) sftOptimizer = createAdamOptimizer({ learningRate: config.sft.learningRate });
    const result = await trainSft(
      model,
      {
        ...common,
        ...sft,
        ...(demonstrations ? { demonstrations } : {}),
        // A random agent of the env's action space, seeded per training seed: valid actions in the format, no policy.
        ...(demonstrator === 'random' ? { demonstrationAgent: ({ env, prompt }: EpisodeContext) => randomAgentFor(env, `demonstration:${String(prompt.seed ?? 0)}`) } : {}),
        // The same draws after the env's true observation: a start that sees, without a policy.
        ...(demonstrator === 'random-grounded' ? { demonstrationAgent: ({ env, prompt }: EpisodeContext) => groundedRandomAgentFor(env, `demonstration:${String(prompt.seed ?? 0)}`) } : {}),
        // A searcher that finds the target by chance, each attempt of a seed its own draws (best-of-n with demonstrationSamples).
        ...(demonstrator === 'noisy-looking'
          ? { demonstrationAgent: ({ env, prompt }: EpisodeContext, attempt: number) => createNoisyLookingAgent({ env, ...noisyLooking, seed: `demonstration:${String(prompt.seed ?? 0)}:${attempt}` }) }
          : {}),
        startStep: step,
        ...(sftOptimizer ? { optimizer: sftOptimizer } : {}),
        checkpointMetadata: { phaseStart: 0 },
      },
      options.emit,
    );
    evaluations.push(...result.evaluations.map((evaluation) => ({ ...evaluation, phase: 'sft' as const })));
    checkCut('sft', 0, config.sft.steps, config.sft.timeLimitSeconds, result);
    step = result.steps;
  }

  // Phase 2: GRPO or PPO, whichever the config names (a resumed run goes on with its checkpoint's).
  const algorithm = config.algorithm;
  const phaseSteps = secondPhase(config)?.steps ?? 0;
  const inPhase2 = resumeFrom?.phase === algorithm && !resumeFrom.complete;
  if (algorithm !== 'sft' && phaseSteps > 0 && !reached() && (inPhase2 || !resumeFrom || resumeFrom.phase === 'sft')) {
    const phaseStart = inPhase2 ? resumeFrom.phaseStart : step;
    const carry = !inPhase2 && continueSftOptimizer;
    if (carry && sftOptimizer === undefined) {
      options.emit({ type: 'log', time: new Date().toISOString(), level: 'warn', step, message: `optimizerState 'sft': this run has no SFT optimizer to go on with (no SFT steps, or a checkpoint without one); ${algorithm.toUpperCase()} starts with a fresh Adam.` });
    }
    const optimizer = inPhase2 ? resumeFrom.optimizer : carry ? sftOptimizer : undefined;
    const resumed = { startStep: step, ...(optimizer ? { optimizer } : {}), checkpointMetadata: { phaseStart } };
    let result;
    if (algorithm === 'ppo') {
      const { timeLimitSeconds, steps, optimizerState: _ppoOptimizerState, ...ppo } = config.ppo;
      result = await trainPpo(model, { ...common, ...ppo, steps: phaseStart + steps, timeLimitSeconds, phaseStart, ...resumed }, options.emit);
    } else {
      const { timeLimitSeconds, steps, optimizerState: _grpoOptimizerState, ...grpo } = config.grpo;
      result = await trainGrpo(model, { ...common, ...grpo, steps: phaseStart + steps, timeLimitSeconds, phaseStart, ...resumed }, options.emit);
    }
    evaluations.push(...result.evaluations.map((evaluation) => ({ ...evaluation, phase: algorithm })));
    checkCut(algorithm, phaseStart, phaseStart + phaseSteps, secondPhase(config)?.timeLimitSeconds, result);
    step = result.steps;
  }
  resumeFrom?.optimizer?.dispose();
  if (sftOptimizer !== resumeFrom?.optimizer) sftOptimizer?.dispose();
  return { steps: step, seconds: (performance.now() - started) / 1000, evaluations, cuts };
}
