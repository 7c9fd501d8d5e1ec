import { BACKTRACK_MESSAGE } from '@saccade/core';
import { chainKey, type ReasoningChain } from './chain-text';
import type { MctsNode, MctsRollout } from './mcts';

/** A chain from a tree: a correct rollout, or a wrong one, the backtracking sentence and a correct one. */
export interface LinearizedChain extends ReasoningChain {
  /** How many "Wait, this seems off…" turns it holds (0 or 1). */
  backtracks: number;
  /** The depth of the node whose rollouts made it. */
  depth: number;
}

/**
 * Whether linearizeTree also makes backtracking chains (a wrong attempt, then the right one) and
 * the sentence between them.
 */
export interface LinearizeOptions {
  /** The sentence between the wrong and the right attempt (default ViGoRL's "Wait, this seems off. Let's try something else."). */
  backtrackMessage?: string;
  /** Also make the wrong → right chains (default true); false keeps only the correct rollouts. */
  backtracking?: boolean;
}

const isCorrect = (rollout: MctsRollout) => rollout.reward >= 1 && rollout.answer !== null;

/**
 * ViGoRL's tree linearisation: at every node, each (wrong, correct) pair of its rollouts becomes
 * `{wrong steps} Wait, this seems off. Let's try something else. {correct steps}` with the correct
 * answer, and each correct rollout is a chain by itself; then the same below, in the children of
 * non-terminal nodes. Chains are deduplicated (same steps, same answer), first kept.
 */
export function linearizeTree(root: MctsNode, { backtrackMessage = BACKTRACK_MESSAGE, backtracking = true }: LinearizeOptions = {}): LinearizedChain[] {
  const chains: LinearizedChain[] = [];
  const seen = new Set<string>();
  const add = (chain: LinearizedChain) => {
    const key = chainKey(chain);
    if (seen.has(key)) return;
    seen.add(key);
    chains.push(chain);
  };
  const visit = (node: MctsNode) => {
    const correct = node.rollouts.filter(isCorrect);
    const wrong = node.rollouts.filter((rollout) => !isCorrect(rollout));
    if (backtracking) {
      for (const failed of wrong) {
        for (const right of correct) add({ steps: [...failed.steps, backtrackMessage, ...right.steps], answer: right.answer!, backtracks: 1, depth: node.depth });
      }
    }
    for (const right of correct) add({ steps: [...right.steps], answer: right.answer!, backtracks: 0, depth: node.depth });
    if (!node.terminal) for (const child of node.children) visit(child);
  };
  visit(root);
  return chains;
}

/** The distinct correct rollouts of a tree (what the search found, before linearisation). */
export function correctRollouts(root: MctsNode): ReasoningChain[] {
  return linearizeTree(root, { backtracking: false }).map(({ steps, answer }) => ({ steps, answer }));
}

/** Every rollout of a tree, depth first. */
export function allRollouts(root: MctsNode): MctsRollout[] {
  const rollouts: MctsRollout[] = [];
  const visit = (node: MctsNode) => {
    rollouts.push(...node.rollouts);
    for (const child of node.children) visit(child);
  };
  visit(root);
  return rollouts;
}
