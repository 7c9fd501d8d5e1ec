import { createMockAgent } from '@saccade/agents';
import { VisionLanguageModel } from '@saccade/models';
import { openTrajectoryStore } from '@saccade/rollout';
import { trajectoriesFile } from '@saccade/runs';
import { initTensor } from '@saccade/tensor';
import { createPolicyEpisodes, grpoBatch, recordedEpisodes } from '@saccade/trainers';
import { beginRun, ENV_ID, squareOf } from './make-run';

/** The response that names seed `seed`'s colour, and one that does not. */
export const right = (seed: number): string => `<answer>${squareOf(seed).colour}</answer>`;
export const WRONG = '<answer>purple</answer>';

/**
 * A training run's folder as `saccade train` stores a GRPO step (episodeStore): the built-in tiny
 * model's trainer plays step `step`'s groups with a scripted policy (seed 0: right then wrong, so
 * its group trains; seed 1: wrong twice, a uniform group left out), `grpoBatch` scores them and
 * `recordedEpisodes` writes what the update used into `trajectories/training.jsonl`.
 */
export async function makeTrainingRun(folder: string, name: string, step: number): Promise<{ path: string; endToken: string }> {
  await initTensor();
  const { path } = beginRun(folder, name, 'train').run;
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  try {
    const episodes = await createPolicyEpisodes(model, { envId: ENV_ID, view: 'image', maxTurns: 1, maxTokens: 24 }, model);
    const responses = [right(0), WRONG, WRONG, WRONG];
    const batch = await episodes.play([0, 1], { groupSize: 2, temperature: 1, seed: 0, step, agent: createMockAgent({ responses }), concurrency: 1 });
    const { used } = await grpoBatch(episodes, batch, { score: 'success' });
    const store = await openTrajectoryStore({ path: trajectoriesFile(path, 'training') });
    for (const trajectory of recordedEpisodes(used, 'grpo', step, episodes.tokenizer)) await store.append(trajectory, batch.images);
    await store.close();
    return { path, endToken: model.tokenizer.decode([model.tokenizer.endId]) };
  } finally {
    model.dispose();
  }
}
