import { chatTrajectory } from '@saccade/rollout';
import type { ImageData, Trajectory } from '@saccade/spec';
import { loadSftImages, readSftFile } from './sft-file';

/** SFT files as trajectories: what `trainSft` takes as `demonstrations` (its `PlayedBatch`). */
export interface SftDemonstrations {
  trajectories: Trajectory[];
  /** Every image the trajectories name, by content hash. */
  images: Map<string, ImageData>;
}

/**
 * Reads SFT files (`saccade data generate` output) as trajectories, one per record: the trainers
 * tokenise them as they do played episodes (the loss on every assistant turn, tool observations
 * and images masked), so a file trains through the same `trainSft` as the oracle's episodes.
 */
export async function sftDemonstrations(files: readonly string[]): Promise<SftDemonstrations> {
  const demonstrations: SftDemonstrations = { trajectories: [], images: new Map() };
  for (const file of files) {
    for (const record of await readSftFile(file)) {
      const { trajectory, images } = chatTrajectory(record.messages, await loadSftImages(record), {
        id: record.id,
        envId: record.dataset,
        agentId: record.method,
        metadata: { file, taskId: record.taskId },
      });
      demonstrations.trajectories.push(trajectory);
      for (const [hash, image] of images) demonstrations.images.set(hash, image);
    }
  }
  return demonstrations;
}
