import { z } from 'zod';

const storedObservationSchema = z.looseObject({ text: z.string(), images: z.array(z.looseObject({ hash: z.string() })) });

const turnSchema = z.looseObject({
  observation: storedObservationSchema,
  action: z.string(),
  reward: z.number(),
});

/**
 * The fields of a stored trajectory (one JSONL line, spec's `Trajectory`) that its readers rely on;
 * the rest passes through. Rollout's trajectory store and agents' replay readers check lines with it.
 *
 * @example
 * const parsed = trajectorySchema.safeParse(JSON.parse(line));
 * if (!parsed.success) throw new TrajectoryFileError({ source: path, line: 3, reason: parsed.error.message });
 */
export const trajectorySchema = z.looseObject({
  id: z.string(),
  envId: z.string(),
  seed: z.number().nullable(),
  agentId: z.string(),
  turns: z.array(turnSchema),
});
