import { callPoint, createRng, distanceToBox, messageText, parsePoints, parseToolCalls, searchCoordinateCall, type Point, type Rng } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError, partialAssistantText, type Agent, type AgentActOptions, type AgentResponse, type Message } from '@saccade/spec';
import { applyStop } from '@saccade/agents';
import type { GroundTruth, TaskLookup } from './task-lookup';

/**
 * Where a noisy grounding agent finds each task's ground truth, its seed, and how often its steps
 * land on, near or off the target: a scripted stand-in for a VLM that lets search be tested and
 * measured without one.
 */
export interface NoisyGroundingAgentSettings {
  /** Where the agent finds each task's ground truth (a `TaskLookup`, or a function of the chat). */
  lookup: TaskLookup | ((messages: readonly Message[]) => GroundTruth | undefined);
  /** Seed of its draws (default 0): the same calls in the same order give the same answers. */
  seed?: number | string;
  /** Chance that a step looks right at the target from nowhere (default 0.05). */
  hitProbability?: number;
  /** Chance that a step lands in the target's region, within `regionRadius` of it (default 0.2). */
  regionProbability?: number;
  /** Once a step of the chain is in the region, chance that a later step finds the target (default 0.5): search narrows from coarse to fine. */
  refineProbability?: number;
  /** How far from the target box (px) the region reaches (default 400). */
  regionRadius?: number;
  /** A point this close to the target box (px) lets the agent see the target (default 100). */
  seenRadius?: number;
  /** Chance of the right answer once the target was seen (default 0.95). */
  accuracyWhenSeen?: number;
  /** Chance of the right answer without having seen it (default 0.1: a usual wrong guess). */
  accuracyWhenUnseen?: number;
  /** Chance of answering after each step while the target is unseen (default 0.3). */
  stopProbability?: number;
  /** Chance of answering after a step that saw the target (default 0.8). */
  stopWhenSeenProbability?: number;
  /** Most steps (single turn) or crops (multi turn) before it answers (default 6). */
  maxSteps?: number;
  id?: string;
}

interface Resolved extends Required<Omit<NoisyGroundingAgentSettings, 'lookup' | 'seed' | 'id'>> {
  find: (messages: readonly Message[]) => GroundTruth | undefined;
}

const probability = (name: string, value: number): number => {
  if (!(typeof value === 'number' && value >= 0 && value <= 1)) throw new InvalidArgumentError({ argument: name, expected: 'a probability from 0 to 1', value });
  return value;
};

/**
 * A point to look at. Coarse to fine: from nowhere a step finds the target with `hitProbability`
 * and its region with `regionProbability`, else looks anywhere; once the chain has reached the
 * region, a step finds the target with `refineProbability`, else looks around in the region.
 */
function drawPoint(rng: Rng, truth: GroundTruth, settings: Resolved, inRegion: boolean): Point {
  const { width, height } = truth.size;
  const [x1, y1, x2, y2] = truth.box;
  const clamp = (value: number, max: number) => Math.min(Math.max(Math.round(value), 0), max - 1);
  const draw = rng.next();
  if (draw < (inRegion ? settings.refineProbability : settings.hitProbability)) {
    return { x: clamp(x1 + rng.next() * (x2 - x1), width), y: clamp(y1 + rng.next() * (y2 - y1), height) };
  }
  if (inRegion || draw < settings.hitProbability + settings.regionProbability) {
    const radius = settings.regionRadius;
    return { x: clamp(x1 - radius + rng.next() * (x2 - x1 + 2 * radius), width), y: clamp(y1 - radius + rng.next() * (y2 - y1 + 2 * radius), height) };
  }
  return { x: rng.int(0, width - 1), y: rng.int(0, height - 1) };
}

/** The final answer: right with the given chance; a wrong option, or a point off the target, otherwise. */
function drawAnswer(rng: Rng, truth: GroundTruth, accuracy: number): string {
  const right = rng.next() < accuracy;
  if (truth.answerType === 'point') {
    const [x1, y1, x2, y2] = truth.box;
    if (right) return `(${rng.int(Math.ceil(x1), Math.floor(x2))}, ${rng.int(Math.ceil(y1), Math.floor(y2))})`;
    for (let attempt = 0; attempt < 20; attempt++) {
      const point = { x: rng.int(0, truth.size.width - 1), y: rng.int(0, truth.size.height - 1) };
      if (distanceToBox(point, truth.box) > 0) return `(${point.x}, ${point.y})`;
    }
    return `(${Math.max(0, Math.floor(x1) - 1)}, ${Math.max(0, Math.floor(y1) - 1)})`;
  }
  if (right || truth.wrongAnswers.length === 0) return truth.answer;
  return rng.pick(truth.wrongAnswers);
}

/** Single turn: continues `<think>` steps (one per line) from the prefix, then answers. */
function continueThinking(rng: Rng, truth: GroundTruth, prefix: string, settings: Resolved): string {
  const openAnswer = prefix.lastIndexOf('<answer>');
  const seenBefore = (points: Point[]) => points.some((point) => distanceToBox(point, truth.box) <= settings.seenRadius);
  const points = parsePoints(prefix.slice(0, openAnswer === -1 ? undefined : openAnswer));
  let seen = seenBefore(points);
  let inRegion = points.some((point) => distanceToBox(point, truth.box) <= settings.regionRadius);
  // Forced to answer: the prefix opened <answer>, or closed </think>.
  if (openAnswer !== -1 && !prefix.includes('</answer>', openAnswer)) return `${drawAnswer(rng, truth, seen ? settings.accuracyWhenSeen : settings.accuracyWhenUnseen)}</answer>`;
  if (prefix.includes('</think>')) return `<answer>${drawAnswer(rng, truth, seen ? settings.accuracyWhenSeen : settings.accuracyWhenUnseen)}</answer>`;
  let text = prefix.includes('<think>') ? (prefix.length === 0 || prefix.endsWith('\n') ? '' : '\n') : '<think>\n';
  let steps = prefix.includes('<think>') ? prefix.slice(prefix.indexOf('<think>') + '<think>'.length).split('\n').filter((line) => line.trim().length > 0).length : 0;
  for (;;) {
    const stop = steps >= settings.maxSteps || (steps > 0 && rng.next() < (seen ? settings.stopWhenSeenProbability : settings.stopProbability));
    if (stop) return `${text}</think><answer>${drawAnswer(rng, truth, seen ? settings.accuracyWhenSeen : settings.accuracyWhenUnseen)}</answer>`;
    const point = drawPoint(rng, truth, settings, inRegion);
    const distance = distanceToBox(point, truth.box);
    const near = distance <= settings.seenRadius;
    const region = distance <= settings.regionRadius;
    text += near
      ? `The ${truth.label} is near (${point.x}, ${point.y}).\n`
      : region
        ? `Something small near (${point.x}, ${point.y}); the ${truth.label} may be close.\n`
        : `No ${truth.label} around (${point.x}, ${point.y}).\n`;
    seen ||= near;
    inRegion ||= region;
    steps++;
  }
}

/** Multi turn: reads the crops asked for so far and either asks for another or answers. */
function nextTurn(rng: Rng, truth: GroundTruth, messages: readonly Message[], settings: Resolved, forced: boolean): string {
  const crops = messages
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => parseToolCalls(messageText(message)).flatMap((call) => (call.ok ? [callPoint(call.call)] : [])))
    .filter((point): point is Point => point !== undefined);
  const seenAt = crops.find((point) => distanceToBox(point, truth.box) <= settings.seenRadius);
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const budgetSpent = lastUser !== undefined && /give your final answer now/i.test(messageText(lastUser));
  if (forced) return `${drawAnswer(rng, truth, seenAt !== undefined ? settings.accuracyWhenSeen : settings.accuracyWhenUnseen)}</answer>`;
  const stop =
    budgetSpent || crops.length >= settings.maxSteps || (crops.length > 0 && rng.next() < (seenAt !== undefined ? settings.stopWhenSeenProbability : settings.stopProbability));
  if (stop) {
    const answer = drawAnswer(rng, truth, seenAt !== undefined ? settings.accuracyWhenSeen : settings.accuracyWhenUnseen);
    const think = seenAt !== undefined ? `The crop around (${seenAt.x}, ${seenAt.y}) shows the ${truth.label}.` : `I could not find the ${truth.label}; I answer from the whole image.`;
    return `<think>${think}</think>\n<answer>${answer}</answer>`;
  }
  const inRegion = crops.some((crop) => distanceToBox(crop, truth.box) <= settings.regionRadius);
  const point = drawPoint(rng, truth, settings, inRegion);
  const think = crops.length === 0 ? `The ${truth.label} is small; I look closer at (${point.x}, ${point.y}).` : `No ${truth.label} in that crop; I look at (${point.x}, ${point.y}) next.`;
  return `<think>${think}</think>\n${searchCoordinateCall(point)}`;
}

/**
 * A scripted agent for grounded search that knows where the target is (from a `TaskLookup`) and
 * finds it only by chance, like a weak VLM: each step looks at the target with `hitProbability`,
 * else at a random point; once a step (or a crop) lands within `seenRadius` of the target it
 * answers right 95 % of the time, otherwise it guesses, mostly wrong. It writes ViGoRL's formats:
 * single turn, one `(x, y)` step per line in `<think>` then `<answer>`; multi turn (when the
 * system prompt offers `<tool_call>`), `search_coordinate` calls then an answer. It continues
 * partial answers (the MCTS uses that) and honours `stop` strings. Deterministic for a seed and a
 * call order.
 *
 * @example
 * const lookup = await TaskLookup.fromTasks(tasks);
 * const agent = createNoisyGroundingAgent({ lookup, seed: 1 });
 */
export function createNoisyGroundingAgent(settings: NoisyGroundingAgentSettings): Agent {
  const { lookup, seed = 0, id = 'noisy-grounding' } = settings;
  if (lookup === undefined || (typeof lookup !== 'function' && typeof lookup.find !== 'function')) {
    throw new InvalidArgumentError({ argument: 'lookup', expected: 'a TaskLookup or a function of the messages', value: lookup });
  }
  const maxSteps = settings.maxSteps ?? 6;
  const seenRadius = settings.seenRadius ?? 100;
  const regionRadius = settings.regionRadius ?? 400;
  if (!(regionRadius >= seenRadius)) throw new InvalidArgumentError({ argument: 'regionRadius', expected: `a distance ≥ seenRadius (${seenRadius} px)`, value: regionRadius });
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new InvalidArgumentError({ argument: 'maxSteps', expected: 'a positive integer', value: maxSteps });
  if (!(seenRadius >= 0)) throw new InvalidArgumentError({ argument: 'seenRadius', expected: 'a distance ≥ 0 in pixels', value: seenRadius });
  const resolved: Resolved = {
    find: typeof lookup === 'function' ? lookup : (messages) => lookup.find(messages),
    hitProbability: probability('hitProbability', settings.hitProbability ?? 0.05),
    regionProbability: probability('regionProbability', settings.regionProbability ?? 0.2),
    refineProbability: probability('refineProbability', settings.refineProbability ?? 0.5),
    regionRadius,
    seenRadius,
    accuracyWhenSeen: probability('accuracyWhenSeen', settings.accuracyWhenSeen ?? 0.95),
    accuracyWhenUnseen: probability('accuracyWhenUnseen', settings.accuracyWhenUnseen ?? 0.1),
    stopProbability: probability('stopProbability', settings.stopProbability ?? 0.3),
    stopWhenSeenProbability: probability('stopWhenSeenProbability', settings.stopWhenSeenProbability ?? 0.8),
    maxSteps,
  };
  const rng = createRng(seed);
  return {
    specificationVersion: 'v1',
    id,
    async act({ messages, n = 1, stop, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const truth = resolved.find(messages);
      if (truth === undefined) {
        throw new InvalidStateError({ operation: `${id}.act()`, expected: 'a chat about a task the lookup knows (its first image)', actual: 'an image it was not given' });
      }
      const system = messages.find((message) => message.role === 'system');
      const multiTurn = system !== undefined && messageText(system).includes('<tool_call>');
      const prefix = partialAssistantText(messages);
      const outputs = Array.from({ length: n }, () => {
        // Multi turn, a partial answer can only be the forced final answer (`… <answer>`).
        const text = multiTurn ? nextTurn(rng, truth, messages, resolved, prefix !== undefined) : continueThinking(rng, truth, prefix ?? '', resolved);
        return { text: applyStop(text, stop), finishReason: 'stop' as const };
      });
      return { outputs };
    },
  };
}
