import { join } from 'node:path';
import { makeEnv, type CropSettings, type PointCropPresetName, type TaskSource } from '@saccade/core';
import { InvalidArgumentError, type Agent, type Env } from '@saccade/spec';
import { formatChain } from '../search/chain-text';
import { countAgentCalls } from '../search/counting-agent';
import { correctRollouts, linearizeTree } from '../search/linearize-tree';
import { runMcts, type MctsSettings } from '../search/mcts';
import { writeTreeFile } from '../search/tree-file';
import { playChain } from './play-chain';
import type { PlayedGroundedEpisode } from './play-grounded-episode';
import { writeSftFile, type SftForm, type SftMethod, type SftRecord } from '../sft/sft-file';
import { sampleBestOfN } from './best-of-n';
import { prepareTask, singleTurnChat, singleTurnMessages } from './prepare-task';
import { selectExamples } from './select-examples';

/**
 * What generateSftData does: the method (MCTS or best-of-n) and form, the tasks and agent, the file
 * it writes, and each method's settings.
 */
export interface GenerateSftDataOptions {
  method: SftMethod;
  /** The tasks: a procedural generator, a task file (V*Bench, ScreenSpot), any task source. */
  source: TaskSource;
  /** Which tasks of the source (indices). */
  taskIndices: readonly number[];
  agent: Agent;
  /** The SFT file to write (JSONL); images go to `images/` beside it. */
  output: string;
  /** single-turn (default): one grounded response; multi-turn: crops come back as turns. */
  form?: SftForm;
  /** best-of-n: samples per task (default 8). */
  n?: number;
  /** mcts: the search settings (ViGoRL's by default). */
  mcts?: Partial<MctsSettings>;
  /** mcts: folder for the tree files (JSON, one per task); none are written without it. */
  treesFolder?: string;
  temperature?: number;
  /** Token limit of a response, a turn or a rollout (default: the agent's; MCTS: its `maxRolloutTokens`). */
  maxTokens?: number;
  /** Most examples per task (default 8). */
  maxPerTask?: number;
  seed?: number;
  preset?: PointCropPresetName | 'auto';
  crop?: Partial<CropSettings>;
  /** Crops per multi-turn example (default 4). */
  maxCrops?: number;
  /** The grounded env the samples and chains are played in, from the env registry (default `saccade/GroundedSearch-v1`, which @saccade/env-grounded registers); it takes `source`, `mode`, `maxCrops`, `preset` and `crop`. */
  envId?: string;
  /** Called after each task. */
  onTask?: (summary: TaskGenerationSummary) => void;
  signal?: AbortSignal;
}

/**
 * One task of generateSftData: generations spent, correct trajectories found, examples considered
 * and kept, and its tree file.
 */
export interface TaskGenerationSummary {
  taskId: string;
  /** Generations spent on the task. */
  generations: number;
  /** Correct trajectories found (distinct): best-of-n samples kept, or the tree's correct rollouts. */
  correct: number;
  /** Candidate examples (MCTS: linearised chains) and those written after dedupe and balance. */
  candidates: number;
  kept: number;
  /** The tree file, for MCTS with a trees folder. */
  treeFile?: string;
}

/**
 * What generateSftData wrote: the file, method and form, how many tasks and records, the agent
 * calls and generations spent, and each task's summary.
 */
export interface GenerateSftDataResult {
  output: string;
  method: SftMethod;
  form: SftForm;
  tasks: number;
  records: number;
  generations: number;
  actCalls: number;
  perTask: TaskGenerationSummary[];
}

/** The grounded env over any task source (@saccade/env-grounded registers it; the runner registers every env package). */
const GROUNDED_SEARCH_ID = 'saccade/GroundedSearch-v1';

const safeName = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);

/**
 * Makes SFT data for grounded reasoning and writes it as an SFT file: best-of-n (sample n
 * responses per task, keep the correct ones) or ViGoRL's MCTS (grow a tree per task, save it,
 * linearise it into chains with the backtracking pattern), in the single-turn form or the
 * multi-turn one (crops as turns), deduplicated and balanced by task. Best-of-n's samples are
 * played by the agent in `saccade/GroundedSearch-v1` (single- or multi-turn, as the form), made from
 * the env registry (register the grounded envs and their crop tool first, as the runner does), and
 * kept by the reward the env gave them; multi-turn MCTS chains are played in it by a replay agent
 * (`playChain`).
 */
export async function generateSftData(options: GenerateSftDataOptions): Promise<GenerateSftDataResult> {
  const { method, source, taskIndices, output, form = 'single-turn', n = 8, maxPerTask = 8, seed = 0, temperature = 1, maxCrops = 4, maxTokens, signal } = options;
  const tokenLimit = maxTokens === undefined ? {} : { maxTokens };
  if (method !== 'mcts' && method !== 'best-of-n') throw new InvalidArgumentError({ argument: 'method', expected: 'mcts | best-of-n', value: method });
  if (form !== 'single-turn' && form !== 'multi-turn') throw new InvalidArgumentError({ argument: 'form', expected: 'single-turn | multi-turn', value: form });
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError({ argument: 'n', expected: 'a positive integer', value: n });
  const agent = countAgentCalls(options.agent);
  const records: SftRecord[] = [];
  const perTask: TaskGenerationSummary[] = [];
  // Best-of-n plays its samples in the env of the form; MCTS plays its chains in it in multi-turn form only.
  const env: Env | undefined =
    method === 'best-of-n' || form === 'multi-turn'
      ? makeEnv(options.envId ?? GROUNDED_SEARCH_ID, { source, mode: form, maxCrops, preset: options.preset ?? 'auto', ...(options.crop ? { crop: options.crop } : {}) })
      : undefined;
  try {
    for (const index of taskIndices) {
      signal?.throwIfAborted();
      const task = await source.get(index);
      const before = agent.generations;
      const candidates: SftRecord[] = [];
      let correct = 0;
      let treeFile: string | undefined;
      const base = { taskId: task.id, dataset: task.dataset, method, form };
      if (method === 'best-of-n') {
        // The samples as played, kept by the reward the env gave them (the record is the chat as played).
        const samples = await sampleBestOfN(env!, agent, { taskIndex: index, n, temperature, ...tokenLimit, ...(signal ? { signal } : {}) });
        samples.forEach(({ played, keep, answer, reward }, position) => {
          if (!keep) return;
          correct++;
          const metadata = form === 'multi-turn' ? { reward, crops: played.images.length - 1 } : { reward };
          candidates.push({ ...base, id: `${task.id}-best-of-n-${position}`, messages: played.messages, images: played.images, answer: answer ?? '', metadata });
        });
      } else {
        const prepared = await prepareTask(task, { preset: options.preset ?? 'auto', ...(options.crop ? { crop: options.crop } : {}) });
        const mcts = { temperature, ...(maxTokens === undefined ? {} : { maxRolloutTokens: maxTokens }), ...options.mcts };
        const result = await runMcts(agent, { messages: singleTurnMessages(prepared), score: (answer) => (prepared.checker(answer, task).correct ? 1 : 0) }, { ...mcts, ...(signal ? { signal } : {}) });
        if (options.treesFolder !== undefined) {
          treeFile = join(options.treesFolder, `${safeName(task.id)}.json`);
          writeTreeFile(treeFile, {
            format: 'saccade-mcts-tree',
            version: 1,
            task: { id: task.id, dataset: task.dataset, question: task.question, answer: task.answer, ...(task.choices ? { choices: task.choices } : {}), imageSize: prepared.size },
            agentId: options.agent.id,
            settings: result.settings,
            usage: result.usage,
            root: result.root,
          });
        }
        correct = correctRollouts(result.root).length;
        const chains = linearizeTree(result.root);
        // One env plays the chains one after the other.
        for (const [position, chain] of chains.entries()) {
          const metadata = { backtracks: chain.backtracks, depth: chain.depth, steps: chain.steps.length };
          const id = `${task.id}-mcts-${position}`;
          if (form === 'single-turn') {
            candidates.push({ ...base, id, messages: [...singleTurnChat(task), { role: 'assistant' as const, content: formatChain(chain) }], images: [prepared.image], answer: chain.answer, metadata });
            continue;
          }
          const played = await playChain(env!, chain, { taskIndex: index, imageSize: prepared.size, maxCrops, ...(signal ? { signal } : {}) });
          candidates.push(chainRecord({ ...base, id, answer: chain.answer, metadata }, played));
        }
      }
      const kept = selectExamples(task.id, candidates, { maxPerTask, seed });
      records.push(...kept);
      const summary: TaskGenerationSummary = { taskId: task.id, generations: agent.generations - before, correct, candidates: candidates.length, kept: kept.length, ...(treeFile ? { treeFile } : {}) };
      perTask.push(summary);
      options.onTask?.(summary);
    }
  } finally {
    await env?.close();
  }
  writeSftFile(output, records);
  return { output, method, form, tasks: perTask.length, records: records.length, generations: agent.generations, actCalls: agent.actCalls, perTask };
}

/** A played chain as an SFT record: the chat the replay agent was shown and answered, its images (the original, then the crops). */
function chainRecord(base: Omit<SftRecord, 'messages' | 'images'>, played: PlayedGroundedEpisode): SftRecord {
  return { ...base, messages: played.messages, images: played.images, metadata: { ...base.metadata, crops: played.images.length - 1 } };
}
