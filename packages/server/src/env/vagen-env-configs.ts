import { getEnvSpec, listEnvs, listTools } from '@saccade/core';
import { z } from 'zod';
import { ServerRequestError } from '../http/server-request-error';
import { VAGEN_LAYOUT_FORMATS, VAGEN_PROMPT_FORMATS, vagenPromptFormat } from './vagen-prompt-formats';

/**
 * VAGEN's env names whose `env_config` keys this service translates (VAGEN's FrozenLake, Sokoban and
 * SVG config classes). Which registered env each one creates is the caller's choice
 * (`createEnvServer({vagenEnvNames: {frozenlake: 'saccade/FrozenLake-v1', …}})`): the server names no env.
 */
export const VAGEN_CONFIG_NAMES: readonly string[] = ['frozenlake', 'sokoban', 'svg'];

/** What a VAGEN `{env_name, env_config}` becomes. */
export interface ResolvedEnvConfig {
  envId: string;
  options: Record<string, unknown>;
  /** Episode turn limit: `null` for none (VAGEN's trainer counts turns itself), undefined for the spec's. */
  maxTurns: number | null | undefined;
  /** VAGEN's `image_placeholder` (default `<image>`): the text marker and the `multi_modal_data` key. */
  imagePlaceholder: string;
  /** VAGEN keys accepted and ignored (no Saccade counterpart), for the log. */
  ignoredKeys: string[];
  /** A line added to the env's system prompt (VAGEN's `*_symbolic` / `*_structured` prompt formats). */
  promptNote?: string;
  /** Registered tools the model may call through `ToolUseWrapper` (`env_config.tools`). */
  tools?: string[];
  /** `ToolUseWrapper`'s limits (`env_config.tool_use`). */
  toolUse?: ToolUseLimits;
}

/** The limits of `ToolUseWrapper` a config may set (`env_config.tool_use`). */
export interface ToolUseLimits {
  timeoutMs?: number;
  maxToolCalls?: number;
  maxCallsPerTurn?: number;
}

type Mapper = (value: unknown, options: Record<string, unknown>) => void;

const bad = (key: string, expected: string, value: unknown) =>
  new ServerRequestError({ statusCode: 400, message: `Invalid env_config.${key}: expected ${expected}, received ${JSON.stringify(value)?.slice(0, 80) ?? String(value)}.` });

const to = (name: string, check: (value: unknown) => boolean, expected: string, key: string): Mapper => (value, options) => {
  if (!check(value)) throw bad(key, expected, value);
  options[name] = value;
};
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isInteger = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;
const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';

// Keys of VAGEN's BaseEnvConfig and the grid configs that every grid env maps the same way.
const gridKeys: Record<string, Mapper> = {
  render_mode: (value, options) => {
    if (value !== 'vision' && value !== 'text') throw bad('render_mode', '"vision" or "text"', value);
    options.observation = value;
  },
  prompt_format: (value, options) => {
    if (typeof value !== 'string' || !VAGEN_PROMPT_FORMATS.includes(value)) throw bad('prompt_format', `one of ${VAGEN_PROMPT_FORMATS.join(', ')}`, value);
    options.format = value;
  },
  max_actions_per_step: to('maxActionsPerTurn', isInteger, 'a positive integer', 'max_actions_per_step'),
  action_sep: to('actionSeparator', (value) => isString(value) && (value as string).length > 0, 'a non-empty string', 'action_sep'),
  format_reward: to('formatReward', isNumber, 'a number', 'format_reward'),
  use_state_reward: to('visualReasoningReward', isBoolean, 'a boolean', 'use_state_reward'),
  grounding_reward_weight: to('visualReasoningWeight', isNumber, 'a number', 'grounding_reward_weight'),
};

const MAPPERS: Record<string, Record<string, Mapper>> = {
  frozenlake: {
    ...gridKeys,
    is_slippery: to('slippery', isBoolean, 'a boolean', 'is_slippery'),
    size: to('size', isInteger, 'a positive integer', 'size'),
    p: to('frozenProbability', (value) => isNumber(value) && (value as number) > 0 && (value as number) <= 1, 'a probability in (0, 1]', 'p'),
    desc: (value, options) => {
      if (value === null) return;
      // gym's desc: rows as strings, or rows as lists of one-letter strings.
      if (!Array.isArray(value) || !value.every((row) => typeof row === 'string' || (Array.isArray(row) && row.every(isString)))) {
        throw bad('desc', 'null or a map as rows of "S", "F", "H", "G" (strings or lists of letters)', value);
      }
      options.map = value.map((row) => (typeof row === 'string' ? row : (row as string[]).join('')));
    },
  },
  sokoban: {
    ...gridKeys,
    dim_room: (value, options) => {
      if (!Array.isArray(value) || value.length !== 2 || !value.every(isInteger)) throw bad('dim_room', '[height, width] of positive integers', value);
      options.height = value[0];
      options.width = value[1];
    },
    num_boxes: to('boxes', isInteger, 'a positive integer', 'num_boxes'),
    min_actions_to_succeed: to('maxSolutionSteps', isInteger, 'a positive integer', 'min_actions_to_succeed'),
  },
  svg: {
    format_reward: to('formatReward', isNumber, 'a number', 'format_reward'),
    split: (value, options) => {
      if (value !== 'train' && value !== 'test') throw bad('split', '"train" or "test"', value);
      options.split = value;
    },
  },
};

// VAGEN keys with no Saccade counterpart: accepted so VAGEN's own configs load unchanged (the first
// line of each: VAGEN's batch-service configs; the second: the GymImageEnv configs of VAGEN's main).
const IGNORED: Record<string, readonly string[]> = {
  frozenlake: ['env_name', 'special_token_list', 'min_actions_to_succeed', 'max_steps', 'worldmodeling_reward_weight', 'seed',
    'slip_prob', 'use_example_in_sys_prompt', 'success_reward'],
  sokoban: ['env_name', 'special_token_list', 'max_steps', 'search_depth', 'worldmodeling_reward_weight', 'seed',
    'use_example_in_sys_prompt', 'min_solution_steps', 'reset_seed_max_tries', 'min_solution_bfs_max_depth', 'success_reward'],
  svg: ['env_name', 'special_token_list', 'dataset_name', 'data_dir', 'seed', 'prompt_format', 'max_actions_per_step', 'format_penalty', 'model_size', 'dino_only', 'dreamsim_weight', 'dino_weight', 'device', 'action_sep'],
};

function placeholderOf(config: Record<string, unknown>): string {
  const value = config.image_placeholder ?? '<image>';
  if (typeof value !== 'string' || value.length === 0) throw bad('image_placeholder', 'a non-empty string', value);
  return value;
}

const toolUseSchema = z.strictObject({
  timeoutMs: z.number().int().positive().optional(),
  maxToolCalls: z.number().int().positive().optional(),
  maxCallsPerTurn: z.number().int().positive().optional(),
});

/** `tools` (registered tool names) and `tool_use` (ToolUseWrapper's limits), taken out of a config. */
function toolsOf(config: Record<string, unknown>): Pick<ResolvedEnvConfig, 'tools' | 'toolUse'> {
  const { tools, tool_use: toolUse } = config;
  const registered = () => listTools().map((tool) => tool.name).join(', ') || 'none registered';
  if (tools === undefined || tools === null) {
    if (toolUse !== undefined) throw bad('tool_use', 'no tool_use without tools', toolUse);
    return {};
  }
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every((name) => typeof name === 'string' && name.length > 0)) {
    throw bad('tools', `a non-empty list of registered tool names (${registered()})`, tools);
  }
  const unknown = tools.filter((name) => !listTools().some((tool) => tool.name === name));
  if (unknown.length > 0) throw bad('tools', `registered tool names (${registered()})`, unknown);
  if (toolUse === undefined) return { tools: tools as string[] };
  const parsed = toolUseSchema.safeParse(toolUse);
  if (!parsed.success) throw bad('tool_use', '{timeoutMs?, maxToolCalls?, maxCallsPerTurn?} of positive integers', toolUse);
  return { tools: tools as string[], toolUse: parsed.data };
}

function maxTurnsOf(config: Record<string, unknown>, fallback: number | null | undefined): number | null | undefined {
  const value = config.max_turns;
  if (value === undefined) return fallback;
  if (value === null || isInteger(value)) return value as number | null;
  throw bad('max_turns', 'a positive integer or null', value);
}

/**
 * Maps VAGEN's `{env_name, env_config}` to a Saccade env id and options. VAGEN names
 * (`frozenlake`, `sokoban`, `svg`) take VAGEN's config keys; keys VAGEN has that Saccade does not
 * are ignored, other keys pass through as Saccade options (so `cellSize` works). Any registered
 * Saccade id (`saccade/FrozenLake-v1`) takes Saccade's options as they are. Both accept
 * `max_turns` (default: none for VAGEN names, whose trainer counts turns; the spec's for ids), and
 * `tools` (registered tool names the model may call through `ToolUseWrapper`) with `tool_use`
 * (its limits).
 */
export function resolveEnvConfig(envName: string, config: Record<string, unknown>, vagenEnvNames: Readonly<Record<string, string>> = {}): ResolvedEnvConfig {
  const imagePlaceholder = placeholderOf(config);
  const vagenId = Object.hasOwn(vagenEnvNames, envName) ? vagenEnvNames[envName] : undefined;
  if (vagenId === undefined) {
    if (getEnvSpec(envName) === undefined) {
      throw new ServerRequestError({
        statusCode: 400,
        message: `Unknown env_name "${envName.slice(0, 100)}": expected one of ${[...Object.keys(vagenEnvNames), ...listEnvs()].join(', ')}.`,
      });
    }
    const { image_placeholder: _placeholder, max_turns: _maxTurns, tools: _tools, tool_use: _toolUse, ...options } = config;
    return { envId: envName, options, maxTurns: maxTurnsOf(config, undefined), imagePlaceholder, ignoredKeys: [], ...toolsOf(config) };
  }
  const mappers = MAPPERS[envName] ?? {};
  const ignored = new Set(IGNORED[envName] ?? []);
  const options: Record<string, unknown> = {};
  const ignoredKeys: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === 'image_placeholder' || key === 'max_turns' || key === 'tools' || key === 'tool_use') continue;
    const mapper = mappers[key];
    if (mapper !== undefined) mapper(value, options);
    else if (ignored.has(key)) ignoredKeys.push(key);
    else options[key] = value;
  }
  let promptNote: string | undefined;
  if ((envName === 'frozenlake' || envName === 'sokoban') && typeof options.format === 'string' && !VAGEN_LAYOUT_FORMATS.includes(options.format)) {
    const variant = vagenPromptFormat(envName, options.format);
    if (variant !== undefined) {
      // The local judge scores relations in words; a grid or a position dictionary it cannot read.
      if (options.visualReasoningReward === true) {
        throw bad('use_state_reward', `false with prompt_format "${options.format}" (the state reward here reads relations written in words: use grounding, worldmodeling or grounding_worldmodeling)`, true);
      }
      options.format = variant.base;
      promptNote = variant.note;
    }
  }
  return { envId: vagenId, options, maxTurns: maxTurnsOf(config, null), imagePlaceholder, ignoredKeys, ...(promptNote === undefined ? {} : { promptNote }), ...toolsOf(config) };
}
