import { loadImage } from '@saccade/image';
import { chatTrajectory } from '@saccade/rollout';
import type { ImageData, Trajectory } from '@saccade/spec';
import { GroundingFileError } from '../errors/grounding-file-error';
import { readSftExamples, type ReadSftExamplesOptions } from './read-sft-examples';
import type { SftExample } from './sft-layouts';

/** SFT files as trajectories: what `trainSft` takes as `demonstrations` (its `PlayedBatch`). */
export interface SftDemonstrations {
  trajectories: Trajectory[];
  /** Every image the trajectories name, by content hash. */
  images: Map<string, ImageData>;
  /** Records skipped under `skipInvalid`. */
  skipped: number;
}

/**
 * Reads SFT files (Saccade's chains, LLaMA-Factory, LLaVA or OpenAI chat files) as trajectories,
 * one per record: the trainers tokenise them as they do played episodes (the loss on every
 * assistant turn, tool observations and images masked), so a file trains through the same
 * `trainSft` as the oracle's episodes. Every image is decoded here, so a file that reads here
 * trains; a bad record throws `GroundingFileError` naming its line (or is skipped and counted with
 * `skipInvalid`).
 */
export async function sftDemonstrations(files: readonly string[], options: ReadSftExamplesOptions = {}): Promise<SftDemonstrations> {
  const demonstrations: SftDemonstrations = { trajectories: [], images: new Map(), skipped: 0 };
  for (const file of files) {
    const { examples, skipped } = await readSftExamples(file, options);
    demonstrations.skipped += skipped;
    for (const example of examples) {
      let loaded: ImageData[];
      try {
        loaded = await loadExampleImages(example);
      } catch (error) {
        if (!GroundingFileError.isInstance(error) || options.skipInvalid !== true) throw error;
        demonstrations.skipped++;
        options.onInvalid?.(error);
        continue;
      }
      const { trajectory, images } = chatTrajectory(example.messages, loaded, {
        id: example.id,
        envId: example.dataset ?? example.layout,
        agentId: example.method ?? example.layout,
        metadata: { file, line: example.line, layout: example.layout, ...(example.taskId === undefined ? {} : { taskId: example.taskId }) },
      });
      demonstrations.trajectories.push(trajectory);
      for (const [hash, image] of images) demonstrations.images.set(hash, image);
    }
  }
  return demonstrations;
}

/** Decodes an example's images; one that is not a readable PNG, JPEG or WebP is an error naming the record's line. */
export async function loadExampleImages(example: SftExample): Promise<ImageData[]> {
  return Promise.all(
    example.images.map(async (source, index) => {
      try {
        const image = await loadImage(source);
        return { data: image.data, mediaType: image.mediaType, width: image.width, height: image.height } as ImageData;
      } catch (error) {
        const shown = source.startsWith('data:') ? `${source.slice(0, 32)}…` : source;
        throw new GroundingFileError({ file: example.file, line: example.line, field: `images[${index}]`, expected: 'a readable PNG, JPEG or WebP image', received: `${shown} (${(error as Error).message})`, cause: error });
      }
    }),
  );
}
