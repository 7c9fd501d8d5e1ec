import { createMockAgent } from '@saccade/agents';
import { makeEnv, ToolUseWrapper } from '@saccade/core';
import { openTrajectoryStore, runRollouts } from '@saccade/rollout';
import { trajectoriesFile } from '@saccade/runs';
import { createSegmentTool, type Segmenter } from '@saccade/tool-segment';
import { beginRun, ENV_ID, IMAGE, squareOf } from './make-run';

/** How far the segmenter's second candidate (the square "with its surroundings") reaches past the square. */
export const MARGIN = 10;

/**
 * A segmenter that knows where seed s put its square: its first candidate is the square exactly
 * (score 0.93), its second the square grown by MARGIN on every side (score 0.71), as SAM's
 * multimask output gives an object and a larger whole.
 */
function squareSegmenter(seed: number): Segmenter {
  const { x, y, size } = squareOf(seed);
  const rectangle = (x1: number, y1: number, x2: number, y2: number): Uint8Array => {
    const mask = new Uint8Array(IMAGE.width * IMAGE.height);
    for (let row = y1; row < y2; row++) mask.fill(1, row * IMAGE.width + x1, row * IMAGE.width + x2);
    return mask;
  };
  return {
    segment: async () => [
      { mask: rectangle(x, y, x + size, y + size), score: 0.93 },
      { mask: rectangle(x - MARGIN, y - MARGIN, x + size + MARGIN, y + size + MARGIN), score: 0.71 },
    ],
    close: async () => {},
  };
}

/**
 * A run folder of one episode that calls the real segment tool (with {@link squareSegmenter}) on
 * the square of `seed`, then answers: the trajectory holds the tool's overlay image and its
 * `{"masks": [...], "count"}` response as an eval writes them.
 */
export async function makeSegmentRun(folder: string, name: string, seed: number): Promise<void> {
  const { run, endEpisode } = beginRun(folder, name, 'eval');
  const square = squareOf(seed);
  const centre = [square.x + square.size / 2, square.y + square.size / 2];
  const store = await openTrajectoryStore({ path: trajectoriesFile(run.path, 'episodes') });
  await runRollouts({
    prompts: [{ envId: ENV_ID, seed }],
    agent: () =>
      createMockAgent({
        id: 'scripted-segmenter',
        responses: [
          `<think>Find the square's outline.</think>\n<tool_call>{"name": "segment", "arguments": {"points": [[${centre.join(', ')}]], "multimask": true}}</tool_call>`,
          `<answer>${square.colour}</answer>`,
        ],
      }),
    createEnv: (prompt) => new ToolUseWrapper(makeEnv(prompt.envId), { tools: [createSegmentTool({ segmenter: squareSegmenter(seed) })] }),
    store,
    onTrajectory: endEpisode,
  });
  await store.close();
  run.appendEvent({ type: 'run-end', time: new Date().toISOString(), status: 'completed' });
}
