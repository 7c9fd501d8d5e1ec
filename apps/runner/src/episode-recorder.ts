import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { imageFileName, openTrajectoryStore, type TrajectoryStore } from '@saccade/rollout';
import { runPaths, TRAJECTORY_FILES, trajectoriesFile } from '@saccade/runs';
import type { EpisodeRecorder } from '@saccade/trainers';
import type { ImageData, RunEvent, Trajectory } from '@saccade/spec';
import type { TrainConfig } from './train-config';

/**
 * The run's episode store: GRPO and PPO steps (every `trainEvery`-th) and held-out evaluations,
 * each episode with its `training` record, appended to `trajectories/training.jsonl` and
 * `trajectories/evaluations.jsonl` (images content-addressed beside them). Once the files reach
 * `maxMegabytes` nothing more is stored, and the run says so once.
 */
export async function createEpisodeRecorder(
  runFolder: string,
  settings: TrainConfig['episodeStore'],
  emit: (event: RunEvent) => void,
): Promise<{ recorder: EpisodeRecorder; close: () => Promise<void> }> {
  const folder = runPaths(runFolder).trajectories;
  const stores = new Map<string, TrajectoryStore>();
  const budget = settings.maxMegabytes * 1e6;
  // A resumed run's files count against the budget too.
  let bytes = folderBytes(folder);
  let full = false;
  const store = async (name: string): Promise<TrajectoryStore> => {
    let opened = stores.get(name);
    if (opened === undefined) {
      opened = await openTrajectoryStore({ path: trajectoriesFile(runFolder, name) });
      stores.set(name, opened);
    }
    return opened;
  };
  const recorder: EpisodeRecorder = {
    wants(phase, step) {
      if (full) return false;
      if (phase === 'eval') return settings.evaluations;
      return settings.trainEvery > 0 && step % settings.trainEvery === 0;
    },
    async record(trajectories, images) {
      const target = await store(trajectories[0]?.training?.phase === 'eval' ? TRAJECTORY_FILES.evaluations : TRAJECTORY_FILES.training);
      const before = statSync(target.path).size;
      for (const trajectory of trajectories) {
        bytes += newImages(trajectory, images, target.imagesDirectory);
        await target.append(trajectory, images);
      }
      bytes += statSync(target.path).size - before;
      if (bytes >= budget && !full) {
        full = true;
        const step = trajectories[0]?.training?.step;
        emit({
          type: 'log',
          time: new Date().toISOString(),
          level: 'warn',
          message: `The episode store reached its ${settings.maxMegabytes} MB (episodeStore.maxMegabytes) at step ${step}; later episodes are not stored.`,
          data: { bytes },
        });
      }
    },
  };
  return {
    recorder,
    close: async () => {
      for (const opened of stores.values()) await opened.close();
    },
  };
}

/** Bytes of the images a trajectory refers to that are not on disk yet (each counted once). */
function newImages(trajectory: Trajectory, images: ReadonlyMap<string, ImageData>, directory: string): number {
  const seen = new Set<string>();
  let bytes = 0;
  const observations = [...trajectory.turns.map((turn) => turn.observation), ...(trajectory.finalObservation ? [trajectory.finalObservation] : [])];
  for (const reference of observations.flatMap((observation) => observation.images)) {
    if (seen.has(reference.hash)) continue;
    seen.add(reference.hash);
    if (!existsSync(join(directory, imageFileName(reference)))) bytes += images.get(reference.hash)?.data.byteLength ?? 0;
  }
  return bytes;
}

/** The bytes of the files under a folder (one level of sub-folders: the images). */
function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isFile()) bytes += statSync(path).size;
    else if (entry.isDirectory()) for (const inner of readdirSync(path, { withFileTypes: true })) if (inner.isFile()) bytes += statSync(join(path, inner.name)).size;
  }
  return bytes;
}
