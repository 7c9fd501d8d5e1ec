import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeZodIssue } from '@saccade/core';
import { writeFileAtomic } from '@saccade/runs';
import { GroundingFileError } from '../errors/grounding-file-error';
import { DEFAULT_MCTS_SETTINGS, type MctsNode, type MctsResult, type MctsSettings } from './mcts';

/** The task an MCTS tree was grown for, as the tree file records it. */
export interface TreeTaskInfo {
  id: string;
  dataset: string;
  question: string;
  answer: unknown;
  choices?: string[];
  imageSize: { width: number; height: number };
}

/** An MCTS tree file (JSON): the task, the settings, the agent usage and the tree. */
export interface MctsTreeFile {
  format: 'saccade-mcts-tree';
  version: 1;
  task: TreeTaskInfo;
  agentId: string;
  settings: MctsSettings;
  usage: MctsResult['usage'];
  root: MctsNode;
}

const pointSchema = z.object({ x: z.number(), y: z.number() });
const rolloutSchema = z.object({ steps: z.array(z.string()), answer: z.string().nullable(), reward: z.number(), forced: z.boolean() });
const nodeSchema: z.ZodType<MctsNode> = z.lazy(() =>
  z.object({
    step: z.string(),
    points: z.array(pointSchema),
    depth: z.number().int().nonnegative(),
    terminal: z.boolean(),
    answer: z.string().nullable().optional(),
    reward: z.number().optional(),
    value: z.number(),
    visits: z.number().int().nonnegative(),
    rollouts: z.array(rolloutSchema),
    children: z.array(nodeSchema),
  }),
) as z.ZodType<MctsNode>;

const settingsSchema = z.object(
  Object.fromEntries(Object.entries(DEFAULT_MCTS_SETTINGS).map(([key, value]) => [key, typeof value === 'boolean' ? z.boolean() : z.number()])) as Record<keyof MctsSettings, z.ZodBoolean | z.ZodNumber>,
);

const treeFileSchema = z.object({
  format: z.literal('saccade-mcts-tree'),
  version: z.literal(1),
  task: z.object({
    id: z.string(),
    dataset: z.string(),
    question: z.string(),
    answer: z.unknown(),
    choices: z.array(z.string()).optional(),
    imageSize: z.object({ width: z.number().positive(), height: z.number().positive() }),
  }),
  agentId: z.string(),
  settings: settingsSchema,
  usage: z.object({ actCalls: z.number().int().nonnegative(), generations: z.number().int().nonnegative() }),
  root: nodeSchema,
});

/** Saves a tree as pretty JSON (atomically). */
export function writeTreeFile(file: string, tree: MctsTreeFile): void {
  writeFileAtomic(file, `${JSON.stringify(tree, null, 1)}\n`);
}

/** Reads and validates a tree file; throws `GroundingFileError` naming the first bad field. */
export function readTreeFile(file: string): MctsTreeFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new GroundingFileError({ file, field: '(file)', expected: 'a readable JSON MCTS tree file', received: (error as Error).message, cause: error });
  }
  const parsed = treeFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new GroundingFileError({ file, ...describeZodIssue(parsed.error.issues, json, '(root)') });
  }
  return parsed.data as MctsTreeFile;
}
