import { appendFileSync } from 'node:fs';
import { createMockAgent } from '@saccade/agents';
import { episodeEndEvent, makeEnv, registerEnv, ToolUseWrapper } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import { openTrajectoryStore, runRollouts, type TrajectoryStore } from '@saccade/rollout';
import { RunFolder, runPaths, trajectoriesFile } from '@saccade/runs';
import type { Env, StepResult, Trajectory } from '@saccade/spec';
import { zoomTool } from '@saccade/tool-zoom';

export const ENV_ID = 'viewertest/ColourSquare-v1';
export const IMAGE = { width: 640, height: 480 };
const colours = ['red', 'blue', 'green'] as const;

/** Where seed s puts its square: a 60 px square, different for every seed. */
export function squareOf(seed: number): { x: number; y: number; size: number; colour: string } {
  return { x: 40 + ((seed * 97) % 500), y: 30 + ((seed * 61) % 380), size: 60, colour: colours[seed % 3]! };
}

/** A small visual env: one square on a grey image; answer its colour in `<answer>`. */
class ColourSquareEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = ENV_ID;
  #colour = 'red';

  async reset({ seed = 0 } = {}) {
    const square = squareOf(seed);
    this.#colour = square.colour;
    const image = await renderSvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE.width}" height="${IMAGE.height}"><rect width="100%" height="100%" fill="#d0d0d0"/>` +
        `<rect x="${square.x}" y="${square.y}" width="${square.size}" height="${square.size}" fill="${square.colour}"/></svg>`,
    );
    return { observation: { text: '<image>\nWhat colour is the square?', images: [{ ...image, width: IMAGE.width, height: IMAGE.height }] }, info: { family: 'colour-square' } };
  }

  async step(action: string): Promise<StepResult> {
    const answer = /<answer>([\s\S]*?)<\/answer>/.exec(action)?.[1]?.trim().toLowerCase();
    const correct = answer === this.#colour;
    const format = answer === undefined ? 0 : 0.1;
    return {
      observation: { text: correct ? 'Correct.' : 'Wrong.', images: [] },
      reward: (correct ? 1 : 0) + format,
      terminated: true,
      truncated: false,
      info: { rewardTerms: { correct: correct ? 1 : 0, format }, metrics: { success: correct, action_is_valid: answer !== undefined }, family: 'colour-square' },
    };
  }

  systemPrompt() {
    return 'Answer with <answer>colour</answer>. You may zoom in with a tool call.';
  }

  async close() {}
}

export function registerColourSquareEnv(): void {
  registerEnv({ id: ENV_ID, create: () => new ColourSquareEnv(), description: 'a square to name the colour of' }, { override: true });
}

/** The zoom box an episode's model asks for: the square with a 20 px margin. */
export function zoomBoxOf(seed: number): [number, number, number, number] {
  const square = squareOf(seed);
  return [square.x - 20, square.y - 20, square.x + square.size + 20, square.y + square.size + 20];
}

/**
 * The scripted model: seeds divisible by 3 answer wrong after a zoom, the others zoom and answer
 * right; seed 4 answers without zooming.
 */
function responsesFor(seed: number): string[] {
  const square = squareOf(seed);
  const zoom = `<think>The square is small; look closer.</think>\n<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [${zoomBoxOf(seed).join(', ')}], "label": "the square"}}</tool_call>`;
  const answer = `<think>The crop shows the square clearly.</think>\n<answer>${seed % 3 === 0 ? 'purple' : square.colour}</answer>`;
  return seed === 4 ? [answer] : [zoom, answer];
}

export interface TestRun {
  path: string;
  store: TrajectoryStore;
  /** Plays more episodes into the run (the live-update case). */
  play(seeds: number[]): Promise<void>;
  end(): void;
}

/** A run folder begun as `saccade <command>` begins one, for the colour-square env. */
export interface BegunRun {
  run: RunFolder;
  /** Appends an episode's `episode-end` event, as an eval does once the episode is stored. */
  endEpisode(trajectory: Trajectory): void;
}

/** Creates `<folder>/<name>` with its `run-start` event (events go through @saccade/runs' RunFolder). */
export function beginRun(folder: string, name: string, command: 'eval' | 'train'): BegunRun {
  registerColourSquareEnv();
  const run = RunFolder.create(folder, name, { checkpoints: false });
  run.appendEvent({ type: 'run-start', time: new Date().toISOString(), runName: name, config: { command, env: { id: ENV_ID } } });
  return {
    run,
    endEpisode: (trajectory) => run.appendEvent(episodeEndEvent(trajectory)),
  };
}

/**
 * A run folder as an eval writes it, played by the rollout manager: events.jsonl, metrics.jsonl,
 * trajectories/episodes.jsonl with the images beside it.
 */
export async function makeRun(folder: string, name: string, seeds: number[]): Promise<TestRun> {
  const { run, endEpisode } = beginRun(folder, name, 'eval');
  const store = await openTrajectoryStore({ path: trajectoriesFile(run.path, 'episodes') });
  let step = 0;
  const play = async (more: number[]) => {
    await runRollouts({
      prompts: more.map((seed) => ({ envId: ENV_ID, seed })),
      agent: ({ prompt }) => createMockAgent({ id: 'scripted-zoomer', responses: responsesFor(prompt.seed ?? 0) }),
      concurrency: 4,
      createEnv: (prompt) => new ToolUseWrapper(makeEnv(prompt.envId), { tools: [zoomTool] }),
      store,
      onTrajectory: endEpisode,
    });
    step++;
    // Written as a row (a minute apart a step), with no eval-end event.
    appendFileSync(runPaths(run.path).metrics, `${JSON.stringify({ kind: 'eval', step, time: new Date(Date.now() + step * 60_000).toISOString(), success: 0.5 + step / 10 })}\n`);
  };
  await play(seeds);
  return {
    path: run.path,
    store,
    play,
    end: () => {
      run.appendEvent({ type: 'run-end', time: new Date().toISOString(), status: 'completed' });
      run.writeSummary({});
    },
  };
}
