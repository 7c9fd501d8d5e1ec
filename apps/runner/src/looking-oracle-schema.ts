import { z } from 'zod';

/**
 * When the looking oracle (SFT's demonstrated calls, or `saccade eval --agent oracle`) counts a
 * target as seen: `minTargetPixels`, the least size (px across, in the tool's result image) a look
 * must show it at, else the oracle looks again, closer (a point crop with `frame: latest`). Empty:
 * a look that holds the target is enough. One schema for the train config and the eval config,
 * which takes a training run's (`--env-from`).
 */
export const lookingOracleSchema = z.object({ minTargetPixels: z.number().finite().nonnegative().optional() }).strict();
