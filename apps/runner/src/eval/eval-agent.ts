import { createGroundedRandomAgent, createOpenAICompatibleAgent, createOracleAgent, createRandomAgent, writeFormattedResponse, type PromptView } from '@saccade/agents';
import { createRng, findActionSpace, OUTPUT_FORMATS, sampleAnswer, type OutputFormat } from '@saccade/core';
import type { EpisodeContext } from '@saccade/rollout';
import type { Agent, AgentActOptions, AgentResponse, Env } from '@saccade/spec';
import type { EvalConfig } from './eval-config';

/** An agent per episode (a factory for the rollout manager), and what to free at the end. */
export interface EvalAgent {
  forEpisode: (context: EpisodeContext) => Agent | Promise<Agent>;
  /** One agent for every episode (the rollout manager plays one with `actBatch` in lock step). */
  shared?: Agent;
  /** How its prompts are built, when not the env's full text with every earlier turn (the policy's training view). */
  prompt?: { view: PromptView; historyWindow: number };
  close: () => void;
}

/**
 * With tools on, generation stops at the end of a tool call, as verl-tool's and VISTA-Gym's loops
 * do, so that the model cannot go on to invent the tool's response. vLLM and SGLang say it matched
 * and OpenAI's API drops it; the agent puts it back at the end of the text either way.
 */
export const TOOL_CALL_STOP = '</tool_call>';

/**
 * The agents `saccade eval --agent` names. Scripted agents are made per episode, bound to the
 * episode's env and seeded by (seed, sample), so an episode plays the same whether it runs alone,
 * among others, or after a resume.
 */
export async function createEvalAgent(config: EvalConfig): Promise<EvalAgent> {
  const agent = config.agent;
  switch (agent.kind) {
    case 'oracle':
      return { forEpisode: ({ env }) => createOracleAgent({ env }), close: () => {} };
    case 'random':
      return { forEpisode: ({ env, prompt }) => randomAgentFor(env, randomSeed(prompt.metadata)), close: () => {} };
    case 'openai': {
      const shared = createOpenAICompatibleAgent({
        baseURL: agent.baseUrl!,
        model: agent.model!,
        concurrency: config.concurrency,
        ...(agent.temperature === undefined ? {} : { temperature: agent.temperature }),
        ...(agent.maxTokens === undefined ? {} : { maxTokens: agent.maxTokens }),
        ...(config.tools.length > 0 ? { stop: [TOOL_CALL_STOP] } : {}),
      });
      return { forEpisode: () => shared, close: () => {} };
    }
    case 'policy':
      return createPolicyAgent(config);
    case 'transformers':
      return createLocalVlmAgent(config);
  }
}

/** A local ONNX VLM through transformers.js (imported only here: it brings onnxruntime's 430 MB). */
async function createLocalVlmAgent(config: EvalConfig): Promise<EvalAgent> {
  const { createTransformersAgent, DTYPE_SUFFIXES } = await import('@saccade/agent-transformers');
  const { agent: settings } = config;
  const { dtype } = settings;
  const isDtype = (value: string): value is keyof typeof DTYPE_SUFFIXES | 'auto' => value === 'auto' || value in DTYPE_SUFFIXES;
  if (dtype !== undefined && !isDtype(dtype)) throw new Error(`--agent transformers: --dtype expected one of auto, ${Object.keys(DTYPE_SUFFIXES).join(', ')}; got ${dtype}`);
  const agent = await createTransformersAgent({
    modelPath: settings.modelPath!,
    seed: config.seed,
    ...(dtype === undefined ? {} : { dtype }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
  });
  return { forEpisode: () => agent, close: () => void agent.dispose() };
}

/** The random agent's seed for an episode: `<seed>:<sample>`, as the eval tests replay it. */
export function randomSeed(metadata: Record<string, unknown> | undefined): string {
  return `${String(metadata?.['evalSeed'] ?? 0)}:${String(metadata?.['sample'] ?? 0)}`;
}

/**
 * A random agent that fits the env: random answers from the action space the env declares
 * (`Env.actionSpace`, found through wrappers), in the env's response format.
 */
export function randomAgentFor(env: Env, seed: string): Agent {
  const space = findActionSpace(env);
  if (space === undefined) throw new Error(`--agent random needs an env that declares its action space (Env.actionSpace); ${env.id} declares none`);
  const answers = space.kind === 'tool-calls' ? space.answer : space;
  if (answers.kind === 'discrete') {
    const format = (OUTPUT_FORMATS as readonly string[]).includes(answers.format) ? (answers.format as OutputFormat) : 'free_think';
    return createRandomAgent({ actions: answers.actions, format, maxActions: answers.maxActionsPerTurn, separator: answers.separator, seed });
  }
  return randomAnswerAgent(env, seed);
}

/**
 * A random agent that says truly what it sees: the env's true `<observation>` (from its oracle),
 * then random actions of its discrete action space, in its format (one with an `<observation>`:
 * `grounding`). SFT on its episodes is a start that perceives and knows the format, not the policy.
 */
export function groundedRandomAgentFor(env: Env, seed: string): Agent {
  const space = findActionSpace(env);
  const answers = space?.kind === 'tool-calls' ? space.answer : space;
  if (answers?.kind !== 'discrete') {
    throw new Error(`sft.demonstrator random-grounded needs an env with a discrete action space (Env.actionSpace), as the grid envs declare; ${env.id} declares ${answers === undefined ? 'none' : `a ${answers.kind} one`}`);
  }
  if (answers.format !== 'grounding') {
    throw new Error(`sft.demonstrator random-grounded writes the env's true <observation>: it needs env.options.format 'grounding'; ${env.id} answers in '${answers.format}'`);
  }
  return createGroundedRandomAgent({ env, actions: answers.actions, format: 'grounding', maxActions: answers.maxActionsPerTurn, separator: answers.separator, seed });
}

/** Free-text answers: one of the choices, else a small number, in the env's format (a VAGEN format, else `free_think`). */
function randomAnswerAgent(env: Env, seed: string): Agent {
  const rng = createRng(seed);
  return {
    specificationVersion: 'v1',
    id: 'random',
    async act({ n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const space = findActionSpace(env);
      const outputs = Array.from({ length: n }, () => {
        const answer = space === undefined ? String(rng.int(0, 10)) : sampleAnswer(space, rng);
        return { text: writeFormattedResponse('free_think', answer, { think: 'I guess.' }), finishReason: 'stop' as const };
      });
      return { outputs };
    },
  };
}

/** The built-in model from a checkpoint, answering greedily from what it was trained to read. */
async function createPolicyAgent(config: EvalConfig): Promise<EvalAgent> {
  const [{ initTensor }, models] = await Promise.all([import('@saccade/tensor'), import('@saccade/models')]);
  await initTensor();
  const { model } = await models.loadCheckpoint(config.agent.checkpoint!);
  const inner = models.createModelAgent({ model, id: 'policy', continueFinalMessage: true, temperature: config.agent.temperature ?? 0, maxTokens: config.agent.maxTokens ?? 48, seed: config.seed });
  // Prompted as it was trained: the run's view and history window, played in lock step.
  return { forEpisode: () => inner, shared: inner, prompt: { view: config.agent.policyView, historyWindow: config.agent.historyWindow ?? 0 }, close: () => model.dispose() };
}

