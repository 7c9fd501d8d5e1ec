import { distanceToBox, makeEnv, parsePoints, targetBoxOf, type VisionQATask } from '@saccade/core';
import type { Agent } from '@saccade/spec';
import { chainKey, type ReasoningChain } from '../search/chain-text';
import { allRollouts, correctRollouts, linearizeTree } from '../search/linearize-tree';
import { resolveMctsSettings, runMcts, type MctsSettings } from '../search/mcts';
import { sampleBestOfN } from './best-of-n';
import { prepareTask, singleTurnMessages } from './prepare-task';

/** How one method did over the tasks. */
export interface MethodStatistics {
  /** Tasks where it found at least one correct chain. */
  tasksWithCorrectChain: number;
  /** Distinct correct chains found, over all tasks. */
  correctChains: number;
  /** Distinct correct chains with a step inside the target box (right for a seen reason, not a lucky guess). */
  groundedCorrectChains: number;
  /** Distinct complete chains it produced (MCTS: rollouts; sampling: samples with an answer) and the share that was correct. */
  chains: number;
  chainAccuracy: number;
  /** Distinct correct chains per generation. */
  correctChainsPerGeneration: number;
  /** SFT chains it yields: MCTS's linearised chains (correct rollouts and wrong → "Wait, this seems off…" → right), sampling's correct chains. */
  sftChains: number;
}

/**
 * One task of compareSearchMethods: the generations each method spent and the chains each found.
 */
export interface TaskComparison {
  taskId: string;
  /** Generations each method spent (sampling is given what MCTS spent). */
  generations: number;
  mcts: { correctChains: number; groundedCorrectChains: number; sftChains: number };
  sampling: { correctChains: number; groundedCorrectChains: number; sftChains: number };
}

/**
 * compareSearchMethods' result: each method's statistics over the tasks at equal generations, the
 * MCTS settings, and each task's counts.
 */
export interface SearchComparison {
  tasks: number;
  settings: MctsSettings;
  /** Generations per method, summed over the tasks (equal by construction). */
  generations: number;
  mcts: MethodStatistics;
  sampling: MethodStatistics;
  perTask: TaskComparison[];
}

/**
 * The tasks compareSearchMethods runs on, a fresh agent per run, the MCTS settings and the sampling
 * temperature.
 */
export interface CompareSearchOptions {
  tasks: readonly VisionQATask[];
  /** A fresh agent for a label (`mcts:<task id>`, `sampling:<task id>`), so each run is reproducible alone. */
  agentFor: (label: string) => Agent;
  mcts?: Partial<MctsSettings>;
  temperature?: number;
  /** The grounded env sampling plays its responses in, from the env registry (default `saccade/GroundedSearch-v1`, single turn). */
  envId?: string;
}

const distinct = <CHAIN extends ReasoningChain>(chains: readonly CHAIN[]): CHAIN[] => [...new Map(chains.map((chain) => [chainKey(chain), chain])).values()];

function groundedCount(chains: readonly ReasoningChain[], task: VisionQATask): number {
  const box = targetBoxOf(task);
  if (box === undefined) return 0;
  return chains.filter((chain) => chain.steps.some((step) => parsePoints(step).some((point) => distanceToBox(point, box) === 0))).length;
}

/**
 * MCTS against sampling alone at equal agent calls: on each task, ViGoRL's MCTS runs first and its
 * generations are counted; best-of-n then samples exactly that many single-turn responses. Both
 * are judged on the distinct chains they produce (MCTS: its rollouts, a terminal node's repeats
 * counted once; sampling: its samples): how many are correct (sampling: correct, well formed and
 * grounded), the share that is correct, how many have a step inside the target box, and the SFT
 * chains they yield (MCTS: after linearisation with backtracking). Sampling's responses are played
 * in the single-turn grounded env from the env registry (register the grounded envs first, as the
 * runner does) and judged by the reward the env gave them.
 */
export async function compareSearchMethods({ tasks, agentFor, mcts = {}, temperature = 1, envId = 'saccade/GroundedSearch-v1' }: CompareSearchOptions): Promise<SearchComparison> {
  const settings = resolveMctsSettings(mcts);
  const perTask: TaskComparison[] = [];
  const totals = {
    mcts: { tasks: 0, correct: 0, grounded: 0, chains: 0, right: 0, sft: 0 },
    sampling: { tasks: 0, correct: 0, grounded: 0, chains: 0, right: 0, sft: 0 },
  };
  let generations = 0;
  const env = makeEnv(envId, { tasks, mode: 'single-turn' });
  try {
    for (const [index, task] of tasks.entries()) {
      const prepared = await prepareTask(task);
      const score = (answer: string) => (prepared.checker(answer, task).correct ? 1 : 0);
      const tree = await runMcts(agentFor(`mcts:${task.id}`), { messages: singleTurnMessages(prepared), score }, settings);
      const budget = tree.usage.generations;
      generations += budget;
      const treeCorrect = correctRollouts(tree.root);
      // Rollouts of a terminal node repeat its chain at no cost: each distinct chain counts once.
      const rollouts = distinct(allRollouts(tree.root).flatMap((rollout) => (rollout.answer === null ? [] : [{ steps: rollout.steps, answer: rollout.answer, reward: rollout.reward }])));
      const samples = budget === 0 ? [] : await sampleBestOfN(env, agentFor(`sampling:${task.id}`), { taskIndex: index, n: budget, temperature });
      const sampledChains = distinct(samples.flatMap((sample) => (sample.chain === undefined ? [] : [{ ...sample.chain, keep: sample.keep }])));
      const sampledCorrect = sampledChains.filter((chain) => chain.keep);
      const comparison: TaskComparison = {
        taskId: task.id,
        generations: budget,
        mcts: { correctChains: treeCorrect.length, groundedCorrectChains: groundedCount(treeCorrect, task), sftChains: linearizeTree(tree.root).length },
        sampling: { correctChains: sampledCorrect.length, groundedCorrectChains: groundedCount(sampledCorrect, task), sftChains: sampledCorrect.length },
      };
      perTask.push(comparison);
      for (const [name, found, chains, right] of [
        ['mcts', comparison.mcts, rollouts.length, rollouts.filter((rollout) => rollout.reward >= 1).length],
        ['sampling', comparison.sampling, sampledChains.length, sampledChains.filter((chain) => chain.keep).length],
      ] as const) {
        const total = totals[name];
        if (found.correctChains > 0) total.tasks++;
        total.correct += found.correctChains;
        total.grounded += found.groundedCorrectChains;
        total.chains += chains;
        total.right += right;
        total.sft += found.sftChains;
      }
    }
  } finally {
    await env.close();
  }
  const statistics = (name: 'mcts' | 'sampling'): MethodStatistics => {
    const total = totals[name];
    return {
      tasksWithCorrectChain: total.tasks,
      correctChains: total.correct,
      groundedCorrectChains: total.grounded,
      chains: total.chains,
      chainAccuracy: total.chains === 0 ? 0 : total.right / total.chains,
      correctChainsPerGeneration: generations === 0 ? 0 : total.correct / generations,
      sftChains: total.sft,
    };
  };
  return { tasks: tasks.length, settings, generations, mcts: statistics('mcts'), sampling: statistics('sampling'), perTask };
}
