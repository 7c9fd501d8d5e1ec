import { parsePoints, readAnswer, type Point } from '@saccade/core';
import { InvalidArgumentError, type Agent, type Message } from '@saccade/spec';
import { continueAnswer } from '@saccade/agents';
import { readContinuation, thinkPrefix } from './chain-text';
import { countAgentCalls } from './counting-agent';

/** ViGoRL's MCTS settings (REFERENCE §6): 8 simulations, 3 children, 2 rollouts each, depth ≤ 10, c = 2.0. */
export interface MctsSettings {
  /** Simulations (selection, expansion, rollouts, backup) per task (default 8). */
  simulations: number;
  /** Children sampled per expansion (default 3). */
  childrenPerExpansion: number;
  /** Rollouts from each new child (default 2). */
  rolloutsPerChild: number;
  /** Most thought steps in a chain; an expansion at this depth is forced to answer (default 10). */
  maxDepth: number;
  /** The UCT constant c in `Q + c·sqrt(ln(N_parent + 1) / (N_child + 1))` (default 2.0). */
  explorationConstant: number;
  /** Drop children whose step repeats a point of their path (default true). */
  pruneRepeatedPoints: boolean;
  /** Sampling temperature of steps and rollouts (default 1). */
  temperature: number;
  /** Token limit of one step (default 256) and of one rollout (default 2048). */
  maxStepTokens: number;
  maxRolloutTokens: number;
}

/** The MCTS settings used when none are given: ViGoRL's (REFERENCE §6), with step and rollout token limits. */
export const DEFAULT_MCTS_SETTINGS: Readonly<MctsSettings> = {
  simulations: 8,
  childrenPerExpansion: 3,
  rolloutsPerChild: 2,
  maxDepth: 10,
  explorationConstant: 2,
  pruneRepeatedPoints: true,
  temperature: 1,
  maxStepTokens: 256,
  maxRolloutTokens: 2048,
};

/** One rollout: the whole chain (the node's path and what the agent wrote after it) and its 0/1 reward. */
export interface MctsRollout {
  steps: string[];
  answer: string | null;
  reward: number;
  /** The answer had to be asked for (the rollout ran past the depth limit or wrote none). */
  forced: boolean;
}

/** A node: one thought step (with its point), or a terminal answer. */
export interface MctsNode {
  /** The thought step ('' at the root, which stands for the question). */
  step: string;
  points: Point[];
  /** Steps from the root (the root is 0). */
  depth: number;
  terminal: boolean;
  /** A terminal node's answer (null when none could be read) and its 0/1 reward. */
  answer?: string | null;
  reward?: number;
  /** Running mean of the rewards backed up through it, and how many. */
  value: number;
  visits: number;
  rollouts: MctsRollout[];
  children: MctsNode[];
}

/** What the search needs of a task: the chat up to the answer, and how to score an answer. */
export interface MctsTask {
  /** System prompt and user turn (image and question); the search continues the assistant's answer. */
  messages: Message[];
  /** 1 for a correct answer, 0 otherwise. */
  score: (answer: string) => number;
}

/**
 * A finished search: the tree, the settings it ran with, and the agent calls and generations it
 * spent.
 */
export interface MctsResult {
  root: MctsNode;
  settings: MctsSettings;
  /** Agent usage: `act` calls and generations (outputs). */
  usage: { actCalls: number; generations: number };
}

const STEP_STOP = ['\n'];
const ANSWER_STOP = ['</answer>'];

/**
 * DEFAULT_MCTS_SETTINGS with `settings` over them, checked: throws InvalidArgumentError naming a
 * count that is not a positive integer or a negative constant or temperature.
 */
export function resolveMctsSettings(settings: Partial<MctsSettings> = {}): MctsSettings {
  const resolved = { ...DEFAULT_MCTS_SETTINGS, ...settings };
  for (const name of ['simulations', 'childrenPerExpansion', 'rolloutsPerChild', 'maxDepth', 'maxStepTokens', 'maxRolloutTokens'] as const) {
    const value = resolved[name];
    const minimum = name === 'rolloutsPerChild' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < minimum) throw new InvalidArgumentError({ argument: name, expected: `an integer ≥ ${minimum}`, value });
  }
  if (!(Number.isFinite(resolved.explorationConstant) && resolved.explorationConstant >= 0)) {
    throw new InvalidArgumentError({ argument: 'explorationConstant', expected: 'a number ≥ 0', value: resolved.explorationConstant });
  }
  if (!(Number.isFinite(resolved.temperature) && resolved.temperature >= 0)) throw new InvalidArgumentError({ argument: 'temperature', expected: 'a number ≥ 0', value: resolved.temperature });
  return resolved;
}

function createNode(step: string, depth: number, terminal: boolean): MctsNode {
  return { step, points: parsePoints(step), depth, terminal, value: 0, visits: 0, rollouts: [], children: [] };
}

/** UCT as ViGoRL scores a child: its running mean plus c·sqrt(ln(N_parent + 1) / (N_child + 1)). */
export function uctScore(parent: Pick<MctsNode, 'visits'>, child: Pick<MctsNode, 'value' | 'visits'>, explorationConstant: number): number {
  return child.value + explorationConstant * Math.sqrt(Math.log(parent.visits + 1) / (child.visits + 1));
}

const pointKey = (point: Point) => `${point.x},${point.y}`;
const stepsOf = (path: readonly MctsNode[]): string[] => path.slice(1).flatMap((node) => (node.step.length > 0 ? [node.step] : []));

/**
 * ViGoRL's MCTS over thought steps. Each simulation selects a path by UCT down to a leaf (or a node
 * with an unvisited child), expands it with `childrenPerExpansion` next steps sampled from the agent
 * (continuing the partial `<think>`, stopping at the line's end), runs `rolloutsPerChild` rollouts
 * from each new child (the agent continues to an answer), scores each answer 0/1 and backs the reward
 * up the path as a running mean. Children that repeat a point of their path are dropped; at
 * `maxDepth` the expansion is forced to answer. Terminal nodes are scored without a call.
 */
export async function runMcts(agent: Agent, task: MctsTask, options: Partial<MctsSettings> & { signal?: AbortSignal } = {}): Promise<MctsResult> {
  const { signal, ...rest } = options;
  const settings = resolveMctsSettings(rest);
  const counted = countAgentCalls(agent);
  const root = createNode('', 0, false);

  const ask = async (prefix: string, n: number, stop: string[], maxTokens: number): Promise<string[]> => {
    signal?.throwIfAborted();
    const response = await continueAnswer(counted, task.messages, prefix, { n, stop, maxTokens, temperature: settings.temperature, ...(signal ? { signal } : {}) });
    return response.outputs.map((output) => output.text);
  };
  /** Asks for the answer after the given steps (thinking closed); one generation. */
  const forceAnswer = async (steps: readonly string[]): Promise<string | null> => {
    const [text = ''] = await ask(`${thinkPrefix(steps)}</think>\n<answer>`, 1, ANSWER_STOP, settings.maxStepTokens);
    const answer = readAnswer(`<answer>${text.endsWith('</answer>') ? text : `${text}</answer>`}`);
    return answer ?? null;
  };
  const scoreAnswer = (answer: string | null | undefined): number => (answer === null || answer === undefined ? 0 : task.score(answer) >= 1 ? 1 : 0);

  const backup = (path: readonly MctsNode[], reward: number) => {
    for (const node of path) {
      node.visits += 1;
      node.value += (reward - node.value) / node.visits;
    }
  };

  const select = (): MctsNode[] => {
    const path: MctsNode[] = [];
    let current = root;
    for (;;) {
      path.push(current);
      if (current.terminal || current.children.length === 0 || current.children.some((child) => child.visits === 0)) return path;
      let best = current.children[0]!;
      let bestScore = -Infinity;
      for (const child of current.children) {
        const score = uctScore(current, child, settings.explorationConstant);
        if (score > bestScore) {
          best = child;
          bestScore = score;
        }
      }
      current = best;
    }
  };

  const expand = async (path: readonly MctsNode[]): Promise<MctsNode[]> => {
    const leaf = path[path.length - 1]!;
    const steps = stepsOf(path);
    const used = new Set(path.flatMap((node) => node.points.map(pointKey)));
    const depth = leaf.depth + 1;
    const added: MctsNode[] = [];
    const sibling = (node: MctsNode) => leaf.children.some((other) => other.step === node.step && other.terminal === node.terminal && (other.answer ?? null) === (node.answer ?? null));
    if (leaf.depth >= settings.maxDepth) {
      // The depth limit: the children are answers.
      for (const text of await ask(`${thinkPrefix(steps)}</think>\n<answer>`, settings.childrenPerExpansion, ANSWER_STOP, settings.maxStepTokens)) {
        const child = createNode('', depth, true);
        child.answer = readAnswer(`<answer>${text.endsWith('</answer>') ? text : `${text}</answer>`}`) ?? null;
        if (sibling(child)) continue;
        leaf.children.push(child);
        added.push(child);
      }
      return added;
    }
    for (const text of await ask(thinkPrefix(steps), settings.childrenPerExpansion, STEP_STOP, settings.maxStepTokens)) {
      const read = readContinuation(text);
      const step = read.steps[0] ?? '';
      let child: MctsNode;
      if (read.ended) {
        child = createNode(step, depth, true);
        child.answer = read.answer ?? (await forceAnswer(step.length > 0 ? [...steps, step] : steps));
      } else {
        if (step.length === 0) continue;
        child = createNode(step, depth, false);
        if (settings.pruneRepeatedPoints && child.points.some((point) => used.has(pointKey(point)))) continue;
      }
      if (sibling(child)) continue;
      leaf.children.push(child);
      added.push(child);
    }
    return added;
  };

  const rollout = async (path: readonly MctsNode[], n: number): Promise<MctsRollout[]> => {
    const child = path[path.length - 1]!;
    const steps = stepsOf(path);
    if (child.terminal) {
      child.reward ??= scoreAnswer(child.answer);
      return Array.from({ length: n }, () => ({ steps, answer: child.answer ?? null, reward: child.reward!, forced: false }));
    }
    const texts = await ask(thinkPrefix(steps), n, ANSWER_STOP, settings.maxRolloutTokens);
    const rollouts: MctsRollout[] = [];
    for (const text of texts) {
      const read = readContinuation(text);
      const room = Math.max(0, settings.maxDepth - steps.length);
      const chain = [...steps, ...read.steps.slice(0, room)];
      let answer = read.answer ?? null;
      let forced = false;
      if (read.steps.length > room || answer === null) {
        answer = await forceAnswer(chain);
        forced = true;
      }
      rollouts.push({ steps: chain, answer, reward: scoreAnswer(answer), forced });
    }
    return rollouts;
  };

  for (let simulation = 0; simulation < settings.simulations; simulation++) {
    const path = select();
    const leaf = path[path.length - 1]!;
    if (leaf.terminal) {
      leaf.reward ??= scoreAnswer(leaf.answer);
      backup(path, leaf.reward);
      continue;
    }
    const children = await expand(path);
    for (const child of children) {
      if (settings.rolloutsPerChild === 0) continue;
      const childPath = [...path, child];
      for (const result of await rollout(childPath, settings.rolloutsPerChild)) {
        child.rollouts.push(result);
        backup(childPath, result.reward);
      }
    }
  }
  return { root, settings, usage: { actCalls: counted.actCalls, generations: counted.generations } };
}
