import { loadCheckpoint, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { trainGrpo, trainPpo, trainSft, type EpisodeRecorder, type PolicyEvaluation } from '@saccade/trainers';
import { sftDemonstrations, type SftDemonstrations } from '@saccade/datagen';
import type { EpisodeContext } from '@saccade/rollout';
import { envFactory } from './env-factory';
import { createEpisodeRecorder } from './episode-recorder';
import { randomAgentFor } from './eval/eval-agent';
import type { LoadedCheckpoint } from '@saccade/models';
import type { RunFolder } from '@saccade/runs';
import type { TrainConfig } from './train-config';
import type { PhasePlan } from '@saccade/tui/eta';

export type Evaluation = PolicyEvaluation & { step: number; seconds: number; phase: 'sft' | 'grpo' | 'ppo' };

export interface TrainRunResult {
  steps: number;
  seconds: number;
  evaluations: Evaluation[];
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

/** The model a run starts with: fresh from the config, or the newest checkpoint's (with its optimizer) on resume. */
/**
 * The phases a run still has ahead (as `runTraining` decides them: SFT unless done, then GRPO or
 * PPO), with their steps and time limits, and the step the first of them started after: what the
 * progress lines and the TUI need for an ETA.
 */
export function plannedPhases(config: TrainConfig, resumeFrom?: { phase: 'sft' | 'grpo' | 'ppo'; complete: boolean; phaseStart: number }): { phases: PhasePlan[]; firstPhaseStart: number } {
  const phases: PhasePlan[] = [];
  const sftPending = config.sft.steps > 0 && (!resumeFrom || (resumeFrom.phase === 'sft' && !resumeFrom.complete));
  if (sftPending) phases.push({ steps: config.sft.steps, timeLimitSeconds: config.sft.timeLimitSeconds });
  const second = secondPhase(config);
  const inPhase2 = resumeFrom?.phase === config.algorithm && !resumeFrom.complete;
  if (second && second.steps > 0 && (inPhase2 || !resumeFrom || resumeFrom.phase === 'sft')) phases.push({ steps: second.steps, timeLimitSeconds: second.timeLimitSeconds });
  return { phases, firstPhaseStart: !sftPending && inPhase2 ? resumeFrom.phaseStart : 0 };
}

/** The settings of the phase after SFT, if the algorithm has one. */
export function secondPhase(config: TrainConfig): { steps: number; timeLimitSeconds: number } | undefined {
  return config.algorithm === 'ppo' ? config.ppo : config.algorithm === 'grpo' ? config.grpo : undefined;
}

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
 * step count across both phases. A resumed run continues the phase its checkpoint was in (or
 * starts the next one when that phase had ended) at the checkpoint's step.
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
    createEnv: envFactory({ maxTurns: config.env.maxTurns, tools: config.tools }),
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
    ...(config.workers === undefined ? {} : { workers: config.workers }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.betweenSteps ? { betweenSteps: options.betweenSteps } : {}),
  };
  const reached = (): boolean => config.targetSuccess !== undefined && (evaluations.at(-1)?.success ?? 0) >= config.targetSuccess;

  let step = resumeFrom?.step ?? 0;
  const sftPending = config.sft.steps > 0 && (!resumeFrom || (resumeFrom.phase === 'sft' && !resumeFrom.complete));
  if (sftPending) {
    const demonstrations = setup.demonstrations ?? (config.sftFiles.length > 0 ? await sftDemonstrations(config.sftFiles, { skipInvalid: config.sftSkipInvalid }) : undefined);
    setup.demonstrations = undefined;
    const { demonstrator, ...sft } = config.sft;
    const result = await trainSft(
      model,
      {
        ...common,
        ...sft,
        ...(demonstrations ? { demonstrations } : {}),
        // A random agent of the env's action space, seeded per training seed: valid actions in the format, no policy.
        ...(demonstrator === 'random' ? { demonstrationAgent: ({ env, prompt }: EpisodeContext) => randomAgentFor(env, `demonstration:${String(prompt.seed ?? 0)}`) } : {}),
        startStep: step,
        ...(resumeFrom?.optimizer ? { optimizer: resumeFrom.optimizer } : {}),
        checkpointMetadata: { phaseStart: 0 },
      },
      options.emit,
    );
    evaluations.push(...result.evaluations.map((evaluation) => ({ ...evaluation, phase: 'sft' as const })));
    step = result.steps;
  }

  // Phase 2: GRPO or PPO, whichever the config names (a resumed run goes on with its checkpoint's).
  const algorithm = config.algorithm;
  const phaseSteps = secondPhase(config)?.steps ?? 0;
  const inPhase2 = resumeFrom?.phase === algorithm && !resumeFrom.complete;
  if (algorithm !== 'sft' && phaseSteps > 0 && !reached() && (inPhase2 || !resumeFrom || resumeFrom.phase === 'sft')) {
    const phaseStart = inPhase2 ? resumeFrom.phaseStart : step;
    const resumed = { startStep: step, ...(inPhase2 && resumeFrom.optimizer ? { optimizer: resumeFrom.optimizer } : {}), checkpointMetadata: { phaseStart } };
    let result;
    if (algorithm === 'ppo') {
      const { timeLimitSeconds, steps, ...ppo } = config.ppo;
      result = await trainPpo(model, { ...common, ...ppo, steps: phaseStart + steps, timeLimitSeconds, phaseStart, ...resumed }, options.emit);
    } else {
      const { timeLimitSeconds, steps, ...grpo } = config.grpo;
      result = await trainGrpo(model, { ...common, ...grpo, steps: phaseStart + steps, timeLimitSeconds, ...resumed }, options.emit);
    }
    evaluations.push(...result.evaluations.map((evaluation) => ({ ...evaluation, phase: algorithm })));
    step = result.steps;
  }
  resumeFrom?.optimizer?.dispose();
  return { steps: step, seconds: (performance.now() - started) / 1000, evaluations };
}
