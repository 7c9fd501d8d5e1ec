import { beforeAll, expect, it } from 'vitest';
import { registerTool } from '@saccade/core';
import { zoomTool } from '@saccade/tool-zoom';
import { registerTestEnvs, VAGEN_NAMES } from '../../test/plug-ins';
import { resolveEnvConfig } from './vagen-env-configs';
import { toVagenInfo } from './vagen-serialisation';

beforeAll(() => {
  registerTestEnvs();
});

it("maps VAGEN's config keys to Saccade options", () => {
  expect(resolveEnvConfig('frozenlake', { is_slippery: true, size: 5, p: 0.7, render_mode: 'text', max_actions_per_step: 2, action_sep: '|', prompt_format: 'no_think', format_reward: 1, desc: [['S', 'F'], ['H', 'G']], special_token_list: [] }, VAGEN_NAMES)).toEqual({
    envId: 'saccade/FrozenLake-v1',
    options: { slippery: true, size: 5, frozenProbability: 0.7, observation: 'text', maxActionsPerTurn: 2, actionSeparator: '|', format: 'no_think', formatReward: 1, map: ['SF', 'HG'] },
    maxTurns: null,
    imagePlaceholder: '<image>',
    ignoredKeys: ['special_token_list'],
  });
  expect(resolveEnvConfig('sokoban', { dim_room: [7, 8], num_boxes: 2, min_actions_to_succeed: 6, max_steps: 100, max_turns: 5, cellSize: 32 }, VAGEN_NAMES)).toMatchObject({
    envId: 'saccade/Sokoban-v1',
    options: { height: 7, width: 8, boxes: 2, maxSolutionSteps: 6, cellSize: 32 },
    maxTurns: 5,
    ignoredKeys: ['max_steps'],
  });
  expect(resolveEnvConfig('svg', { format_reward: 0.5, split: 'test', dataset_name: 'starvector/svg-icons-simple' }, VAGEN_NAMES)).toMatchObject({
    envId: 'saccade/SvgReconstruction-v1',
    options: { formatReward: 0.5, split: 'test' },
  });
  expect(resolveEnvConfig('saccade/Sokoban-v1', { boxes: 1, image_placeholder: '<img>' }, VAGEN_NAMES)).toMatchObject({ options: { boxes: 1 }, maxTurns: undefined, imagePlaceholder: '<img>' });
  expect(() => resolveEnvConfig('frozenlake', { p: 2 }, VAGEN_NAMES)).toThrow(/env_config.p: expected a probability/);
});

it("splits metrics into VAGEN's turn and trajectory metrics", () => {
  expect(toVagenInfo({ metrics: { action_is_valid: true, action_is_effective: false, format_correct: true, success: true }, rewardTerms: { format: 0.5 } })).toEqual({
    rewardTerms: { format: 0.5 },
    metrics: { turn_metrics: { action_is_valid: true, action_is_effective: false, format_correct: true }, traj_metrics: { success: true } },
  });
});

it("takes VAGEN's symbolic and structured prompt formats: the layout they extend, and VAGEN's line for the prompt", () => {
  expect(resolveEnvConfig('frozenlake', { prompt_format: 'grounding_symbolic' }, VAGEN_NAMES)).toEqual({
    envId: 'saccade/FrozenLake-v1',
    options: { format: 'grounding' },
    maxTurns: null,
    imagePlaceholder: '<image>',
    ignoredKeys: [],
    promptNote: 'The observation should be represented as a grid using the symbols: _ Frozen | O Hole | G Goal | P Player | X Player fell into hole | √ Player on goal.',
  });
  expect(resolveEnvConfig('sokoban', { prompt_format: 'worldmodeling_structured' }, VAGEN_NAMES)).toMatchObject({
    options: { format: 'worldmodeling' },
    promptNote: 'The prediction should be in the format of {"player":(row,column),"box":(row,column),"target":(row,column)}',
  });
  expect(resolveEnvConfig('sokoban', { prompt_format: 'grounding_worldmodeling_symbolic' }, VAGEN_NAMES).options).toEqual({ format: 'grounding_worldmodeling' });
  expect(() => resolveEnvConfig('frozenlake', { prompt_format: 'grounding_symbolic', use_state_reward: true }, VAGEN_NAMES)).toThrow(/use_state_reward: expected false with prompt_format "grounding_symbolic"/);
  expect(() => resolveEnvConfig('frozenlake', { prompt_format: 'chain_of_thought' }, VAGEN_NAMES)).toThrow(
    'Invalid env_config.prompt_format: expected one of free_think, no_think, grounding, worldmodeling, grounding_worldmodeling, grounding_symbolic, worldmodeling_symbolic, grounding_worldmodeling_symbolic, grounding_structured, worldmodeling_structured, grounding_worldmodeling_structured, received "chain_of_thought".',
  );
  // Names the caller did not map are not VAGEN names here.
  expect(() => resolveEnvConfig('frozenlake', {})).toThrow(/Unknown env_name "frozenlake"/);
});

it("takes tools by registered name with ToolUseWrapper's limits, and the keys of VAGEN main's GymImageEnv configs", () => {
  registerTool(zoomTool, { override: true });
  expect(resolveEnvConfig('saccade/VisualSearch-v1', { size: 2048, tools: ['image_zoom_in_tool'], tool_use: { maxToolCalls: 2 } }, VAGEN_NAMES)).toEqual({
    envId: 'saccade/VisualSearch-v1',
    options: { size: 2048 },
    maxTurns: undefined,
    imagePlaceholder: '<image>',
    ignoredKeys: [],
    tools: ['image_zoom_in_tool'],
    toolUse: { maxToolCalls: 2 },
  });
  expect(() => resolveEnvConfig('frozenlake', { tools: ['telescope'] }, VAGEN_NAMES)).toThrow(/^Invalid env_config.tools: expected registered tool names \(.*image_zoom_in_tool.*\), received \["telescope"\]\.$/);
  expect(() => resolveEnvConfig('frozenlake', { tools: ['image_zoom_in_tool'], tool_use: { maxToolCalls: 0 } }, VAGEN_NAMES)).toThrow('Invalid env_config.tool_use: expected {timeoutMs?, maxToolCalls?, maxCallsPerTurn?} of positive integers, received {"maxToolCalls":0}.');
  expect(resolveEnvConfig('frozenlake', { size: 4, slip_prob: 0, use_example_in_sys_prompt: true, success_reward: 1 }, VAGEN_NAMES).ignoredKeys).toEqual(['slip_prob', 'use_example_in_sys_prompt', 'success_reward']);
});
