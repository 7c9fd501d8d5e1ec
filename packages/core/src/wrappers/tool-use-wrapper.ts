import {
  IMAGE_PLACEHOLDER,
  InvalidArgumentError,
  InvalidStateError,
  type Env,
  type EnvInfo,
  type EnvResetOptions,
  type ImageBox,
  type ImageData,
  type ResetResult,
  type StepResult,
  type Tool,
} from '@saccade/spec';
import type { ToolCallParseResult } from '../formats/parse-tool-calls';
import { extractTagContent } from '../formats/scan-tags';
import { runTool, type ToolFailureKind } from '../tools/run-tool';
import { createTool, getTool } from '../tools/tool-registry';
import { EnvWrapper } from './env-wrapper';
import { HERMES_TOOL_FORMAT, type ToolCallOutcome, type ToolTurnFormat } from './tool-turn-format';

/**
 * A budget of tool results per episode (ViGoRL's crops: the original image and 4 crops). Calls that
 * ran and returned count; failed calls do not. The result that spends it carries `spentNote`; while
 * it is spent each tool turn's `info.forcedPrefix` is `forcedPrefix` (the start of a final answer a
 * runner makes the agent continue); a response that calls a tool then ends the episode, truncated
 * (`info.truncatedBy: 'tool-budget'`), with `exceededNote` as its observation.
 */
export interface ToolBudget {
  /** Results per episode (≥ 0). */
  results: number;
  /** Appended (on a line of its own) to the observation of the result that spends the budget. */
  spentNote?: (results: number) => string;
  /** The observation of a call past the budget, which ends the episode. */
  exceededNote?: (results: number) => string;
  /** `info.forcedPrefix` of each tool turn once the budget is spent. */
  forcedPrefix?: string;
}

/** Which tools `ToolUseWrapper` lets the model call, and the limits of each call. */
export interface ToolUseWrapperOptions {
  /** The tools the model may call: tools, or names of registered tools. */
  tools: ReadonlyArray<Tool | string>;
  /** Longest one tool call may run before it is cancelled and reported (default 30,000 ms). */
  timeoutMs?: number;
  /** Tool calls run per episode; later calls are refused with a message (default 10). */
  maxToolCalls?: number;
  /** Tool calls read from one response; the rest are reported as ignored (default 4). */
  maxCallsPerTurn?: number;
  /** Turns (tool turns and answers) per episode; the turn that reaches it is truncated (default 10). */
  maxTurns?: number;
  /** Cancels running tools (e.g. the rollout was stopped). */
  signal?: AbortSignal;
  /** How calls are written and results read back (default HERMES_TOOL_FORMAT: `<tool_call>` / `<tool_response>`). */
  format?: ToolTurnFormat;
  /** A budget of results per episode, spent by calls that ran (default none: only `maxToolCalls`). */
  budget?: ToolBudget;
  /** Rewards of the tool loop itself (default none: tool turns earn 0 and the answer its env's reward). */
  rewards?: ToolRewards;
  /** How the looking oracle (`oracleResponse`) decides a look is close enough (default: any region that holds the target). */
  lookingOracle?: LookingOracleOptions;
}

/** When the looking oracle counts a target as seen, so it stops looking and answers. */
export interface LookingOracleOptions {
  /**
   * A region holds a target for the oracle only when the tool's result shows the target's box at
   * least this many pixels across (its shorter side, scaled from the region to the result image),
   * so a target too small to read in the first crop gets a second, closer look (a tool with
   * `frame: 'latest'` crops into the last crop). Default 0: one look that holds it is enough.
   */
  minTargetPixels?: number;
}

/**
 * Rewards the tool loop adds to the env's, each as a named reward term so a run shows why it was
 * given: a penalty on a tool turn whose calls were not all valid, DeepEyes' conditional tool
 * bonus on a right answer after a call that gave a result, and a grounding reward for the look that
 * first brought the task's target into view.
 */
export interface ToolRewards {
  /** The reward of a tool turn with an unreadable call, an unknown tool, bad arguments or a failed run (e.g. −0.1); term `invalid_call`. */
  invalidCall?: number;
  /** Added to the answer's reward when the episode succeeded and some call of it gave a result (DeepEyes: R_tool only with R_acc > 0); term `tool_bonus`. */
  toolBonus?: number;
  /**
   * The reward of the tool turn whose call first returned a region holding the task's target box
   * (`metadata.targetBox`), once an episode: a verifiable grounding reward for the look itself,
   * whatever the answer after it; term `target_hit`. Needs a task with a target box.
   */
  targetHit?: number;
}

/** What happened to one `<tool_call>` of a turn, in `info.toolCalls`. */
export interface ToolCallRecord {
  /** The tool named, when the call could be read. */
  name?: string;
  arguments?: Record<string, unknown>;
  ok: boolean;
  /** Why the call gave no result: unreadable, unknown tool, over the limit or the budget, or the runner's kind. */
  failure?: 'parse-error' | 'unknown-tool' | 'limit-reached' | 'budget-spent' | ToolFailureKind;
  error?: string;
  durationMs?: number;
  images?: number;
  /** The part of the first image the result showed (tools that crop), in its pixels. */
  region?: ImageBox;
  /** Whether that region held the whole of the task's target (`info.targetBox` at reset), when the env gives one. */
  hit?: boolean;
}

/** Reads a `[x1, y1, x2, y2]` box of finite numbers, or undefined. */
function readBox(value: unknown): ImageBox | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((entry) => typeof entry === 'number' && Number.isFinite(entry))) return undefined;
  const [x1, y1, x2, y2] = value as ImageBox;
  return x2 > x1 && y2 > y1 ? [x1, y1, x2, y2] : undefined;
}

const contains = (outer: ImageBox, inner: ImageBox) => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/** How many pixels across the result image shows `box` (its shorter side), or Infinity when the image's size is not known. */
function shownAcross(box: ImageBox, region: ImageBox, image: ImageData | undefined): number {
  if (image?.width === undefined || image.height === undefined) return Number.POSITIVE_INFINITY;
  return Math.min(((box[2] - box[0]) * image.width) / (region[2] - region[0]), ((box[3] - box[1]) * image.height) / (region[3] - region[1]));
}

const stripPlaceholders = (text: string) => text.replaceAll(IMAGE_PLACEHOLDER, '');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Makes any env a multi-turn, tool-integrated env (the VISTA-Gym / DeepEyes / verl-tool loop). A
 * response with `<tool_call>` blocks (any of the three shapes) is a tool turn: each call is
 * validated and run with a time limit, and the results come back as the next observation in
 * `<tool_response>…</tool_response>` sections, their images attached in order; reward 0, the
 * episode goes on. A response without tool calls (the final `<answer>`) goes to the wrapped env.
 * Bad calls (unreadable JSON, unknown tool, bad arguments, a tool that throws or hangs) become a
 * section saying what was wrong, with `info.valid: false`. Tools crop from `images`: the episode's
 * images so far, the env's originals first.
 *
 * Where the env says where the answer is (`info.targetBox` at reset, as V*-style tasks do), each
 * call that returns a region is marked `hit` when the region holds the target, and
 * `oracleResponse()` demonstrates looking: a call of the first tool that can `lookAt` the target
 * (with `info.targetBoxes`, at each named object in turn, until a region has held each; with
 * `lookingOracle.minTargetPixels`, until a result showed it that large), then the env's own answer.
 * Tools get, beside the images, the region of the original each one shows (`regions`).
 *
 * An env may ask for the settings its tools run with in an episode (`info.toolSettings` at reset,
 * by tool name: a crop size picked per task): those tools are made for the episode by the factory
 * they were registered with (`createTool`). `format` changes the call convention (ViGoRL's
 * `<observation>` replies, say) and `budget` bounds the results an episode may take.
 *
 * @example
 * const env = new ToolUseWrapper(makeEnv('saccade/VisionQA-v1', {tasks}), { tools: [zoomTool, ocrTool] });
 */
export class ToolUseWrapper extends EnvWrapper {
  readonly timeoutMs: number;
  readonly maxToolCalls: number;
  readonly maxCallsPerTurn: number;
  readonly maxTurns: number;
  readonly format: ToolTurnFormat;
  readonly budget: ToolBudget | undefined;
  readonly rewards: Required<ToolRewards>;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #toolsPrompt: string | undefined;
  readonly #signal: AbortSignal | undefined;
  /** The tools made with an env's settings, by name and settings, kept across episodes. */
  readonly #made = new Map<string, Tool>();
  #episodeTools: ReadonlyMap<string, Tool>;
  #episodeSettings = new Map<string, Record<string, unknown>>();
  #results = 0;
  #images: ImageData[] = [];
  #turns = 0;
  #toolCalls = 0;
  /** Calls of the episode that gave a result (the tool bonus needs one). */
  #usefulCalls = 0;
  #episode: AbortController | undefined;
  #done = false;
  #target: ImageBox | undefined;
  #hits = 0;
  #hitRewarded = false;
  /** What the looking oracle looks at, in order (`info.targetBoxes`, else the target), and whether a call's region has held each. */
  #lookFor: ImageBox[] = [];
  #held: boolean[] = [];
  /** For each of `#images`, the part of the first image it shows (a tool's region), or undefined. */
  #regions: (ImageBox | undefined)[] = [];
  readonly #minTargetPixels: number;

  constructor(env: Env, options: ToolUseWrapperOptions) {
    super(env);
    if (!Array.isArray(options?.tools) || options.tools.length === 0) {
      throw new InvalidArgumentError({ argument: 'tools', expected: 'a non-empty array of tools or registered tool names', value: options?.tools });
    }
    const tools = new Map<string, Tool>();
    for (const entry of options.tools) {
      const tool = typeof entry === 'string' ? getTool(entry) : entry;
      if (tools.has(tool.name)) throw new InvalidArgumentError({ argument: 'tools', expected: 'tools with distinct names', value: tool.name });
      tools.set(tool.name, tool);
    }
    this.#tools = tools;
    this.#episodeTools = tools;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? 30_000);
    this.maxToolCalls = positive('maxToolCalls', options.maxToolCalls ?? 10);
    this.maxCallsPerTurn = positive('maxCallsPerTurn', options.maxCallsPerTurn ?? 4);
    this.maxTurns = positive('maxTurns', options.maxTurns ?? 10);
    this.#signal = options.signal;
    this.format = options.format ?? HERMES_TOOL_FORMAT;
    if (typeof this.format?.read !== 'function' || typeof this.format.write !== 'function' || typeof this.format.toolsPrompt !== 'function') {
      throw new InvalidArgumentError({ argument: 'format', expected: 'a tool turn format {name, toolsPrompt, read, write}', value: options.format });
    }
    this.budget = options.budget;
    const rewards: ToolRewards = options.rewards ?? {};
    if (!isRecord(rewards as unknown)) throw new InvalidArgumentError({ argument: 'rewards', expected: 'an object {invalidCall?, toolBonus?, targetHit?} of finite numbers', value: rewards });
    for (const name of Object.keys(rewards)) {
      if (name !== 'invalidCall' && name !== 'toolBonus' && name !== 'targetHit') throw new InvalidArgumentError({ argument: `rewards.${name}`, expected: 'one of invalidCall, toolBonus, targetHit', value: name });
      const value = (rewards as Record<string, unknown>)[name];
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidArgumentError({ argument: `rewards.${name}`, expected: 'a finite number', value });
    }
    this.rewards = { invalidCall: rewards.invalidCall ?? 0, toolBonus: rewards.toolBonus ?? 0, targetHit: rewards.targetHit ?? 0 };
    const minTargetPixels = options.lookingOracle?.minTargetPixels ?? 0;
    if (typeof minTargetPixels !== 'number' || !Number.isFinite(minTargetPixels) || minTargetPixels < 0) {
      throw new InvalidArgumentError({ argument: 'lookingOracle.minTargetPixels', expected: 'a number of pixels ≥ 0', value: minTargetPixels });
    }
    this.#minTargetPixels = minTargetPixels;
    if (this.budget !== undefined && (!Number.isSafeInteger(this.budget.results) || this.budget.results < 0)) {
      throw new InvalidArgumentError({ argument: 'budget.results', expected: 'an integer ≥ 0', value: this.budget.results });
    }
    // Export the schemas now: a tool whose schema cannot be shown to the model fails here, not mid-run.
    this.#toolsPrompt = this.format.toolsPrompt([...tools.values()]);
    const inner = innerOracle(env);
    if (inner !== undefined) this.oracleResponse = () => this.#lookingOracle(inner);
  }

  /** The tools the model may call, by name: this episode's (made with the env's settings) after a reset. */
  get tools(): ReadonlyMap<string, Tool> {
    return this.#episodeTools;
  }

  /** Results the budget has left in this episode (undefined without a budget). */
  get budgetLeft(): number | undefined {
    return this.budget === undefined ? undefined : Math.max(0, this.budget.results - this.#results);
  }

  /** Tool calls run in this episode. */
  get toolCalls(): number {
    return this.#toolCalls;
  }

  /** Turns taken in this episode. */
  get turns(): number {
    return this.#turns;
  }

  /** The wrapped env's prompt followed by the format's description of the tools (Hermes: the `<tools>` block). */
  override systemPrompt(): string {
    return this.#toolsPrompt === undefined ? this.env.systemPrompt() : `${this.env.systemPrompt()}\n\n${this.#toolsPrompt}`;
  }

  override async reset(options?: EnvResetOptions): Promise<ResetResult> {
    this.#episode?.abort(new Error('a new episode started'));
    const result = await this.env.reset(options);
    this.#episode = new AbortController();
    this.#images = [...result.observation.images];
    this.#regions = this.#images.map(() => undefined);
    this.#turns = 0;
    this.#toolCalls = 0;
    this.#usefulCalls = 0;
    this.#done = false;
    this.#target = readBox(result.info['targetBox']);
    this.#hits = 0;
    this.#hitRewarded = false;
    const boxes = Array.isArray(result.info['targetBoxes']) ? (result.info['targetBoxes'] as unknown[]).map(readBox) : [];
    this.#lookFor = boxes.length > 0 && boxes.every((box) => box !== undefined) ? (boxes as ImageBox[]) : this.#target === undefined ? [] : [this.#target];
    this.#held = this.#lookFor.map(() => false);
    this.#results = 0;
    this.#useSettings(result.info['toolSettings']);
    return { ...result, info: { ...result.info, toolCallCount: 0 } };
  }

  /** This episode's tools: the ones the env gave settings for are made with them (once per settings). */
  #useSettings(requested: unknown): void {
    this.#episodeSettings = new Map();
    if (requested === undefined) {
      this.#episodeTools = this.#tools;
      return;
    }
    if (!isRecord(requested) || !Object.values(requested).every(isRecord)) {
      throw new InvalidArgumentError({ argument: 'info.toolSettings', expected: 'settings objects by tool name, from the env\'s reset', value: requested });
    }
    const tools = new Map(this.#tools);
    for (const [name, settings] of Object.entries(requested as Record<string, Record<string, unknown>>)) {
      if (!tools.has(name)) continue;
      const key = `${name}\u0000${JSON.stringify(settings)}`;
      let tool = this.#made.get(key);
      if (tool === undefined) {
        tool = createTool(name, settings);
        this.#made.set(key, tool);
      }
      tools.set(name, tool);
      this.#episodeSettings.set(name, settings);
    }
    this.#episodeTools = tools;
  }

  override async step(action: string): Promise<StepResult> {
    if (this.#episode === undefined) throw new InvalidStateError({ operation: 'step()', expected: 'reset() to be called first', actual: 'no episode yet' });
    if (this.#done) throw new InvalidStateError({ operation: 'step()', expected: 'an episode in progress', actual: 'the episode has ended; call reset()' });
    const text = typeof action === 'string' ? action : '';
    this.#turns += 1;
    const toolNames = [...this.#episodeTools.keys()];
    const reading = this.format.read(text, { maxCalls: this.maxCallsPerTurn, toolNames });
    if (reading.kind !== 'calls') {
      const textCall = extractTagContent(text, 'answer') === undefined ? this.#readTextCall(text) : undefined;
      if (textCall === undefined) {
        if (reading.kind === 'answer') return this.#finish(await this.env.step(text));
        return this.#toolTurn([], this.format.write({ calls: [], error: reading.error, response: text, toolNames }), [], reading.error);
      }
      // A call written in the text (```python …```): the tool shapes its own observation, as verl-tool's do.
      const { tool, input } = textCall;
      const result = await this.#call({ ok: true, call: { name: tool.name, arguments: input as Record<string, unknown> }, raw: text });
      const observation = [tool.textCalls!.format(text, stripPlaceholders(result.text)), ...result.images.map(() => IMAGE_PLACEHOLDER)].join('');
      return this.#toolTurn([result.record], observation, result.images);
    }
    if (this.budget !== undefined && this.#results >= this.budget.results) return this.#overBudget(reading.calls);

    const outcomes: ToolCallOutcome[] = [];
    const images: ImageData[] = [];
    for (const call of reading.calls) {
      const outcome = await this.#call(call);
      images.push(...outcome.images);
      const settings = outcome.record.name === undefined ? undefined : this.#episodeSettings.get(outcome.record.name);
      outcomes.push({ record: outcome.record, text: stripPlaceholders(outcome.text), images: outcome.images.length, ...(settings === undefined ? {} : { settings }) });
    }
    let observation = this.format.write({ calls: outcomes, response: text, toolNames });
    if (this.budget !== undefined) {
      const before = this.#results;
      this.#results += outcomes.filter((outcome) => outcome.record.ok).length;
      const spentNote = this.budget.spentNote;
      if (before < this.budget.results && this.#results >= this.budget.results && spentNote !== undefined) observation = `${observation}\n${spentNote(this.budget.results)}`;
    }
    return this.#toolTurn(outcomes.map((outcome) => outcome.record), observation, images, reading.formatError);
  }

  /** A call past the budget: the episode ends there, truncated, without running it. */
  #overBudget(calls: readonly ToolCallParseResult[]): StepResult {
    const results = this.budget!.results;
    const note = this.budget!.exceededNote?.(results) ?? `No tool results remain (the budget is ${results}); the episode ends without an answer.`;
    const records: ToolCallRecord[] = calls.map((call) =>
      call.ok ? { name: call.call.name, arguments: call.call.arguments, ok: false, failure: 'budget-spent', error: note } : { ok: false, failure: 'parse-error', error: call.error },
    );
    this.#done = true;
    const info: EnvInfo = {
      rewardTerms: {},
      metrics: { action_is_valid: false, tool_call_count: 0 },
      valid: false,
      toolCalls: records,
      toolCallCount: this.#toolCalls,
      toolBudgetLeft: 0,
      turn: this.#turns,
      truncatedBy: 'tool-budget',
    };
    return { observation: { text: note, images: [] }, reward: 0, terminated: false, truncated: true, info };
  }

  /** The first tool whose `textCalls.read` finds a call in the response, with its input. */
  #readTextCall(text: string): { tool: Tool; input: unknown } | undefined {
    for (const tool of this.#episodeTools.values()) {
      if (tool.textCalls === undefined) continue;
      let input: unknown;
      try {
        input = tool.textCalls.read(text);
      } catch {
        input = undefined;
      }
      if (input !== undefined) return { tool, input };
    }
    return undefined;
  }

  /** A tool turn's step result: the format's observation, reward 0, the episode goes on unless the turn limit is reached. */
  #toolTurn(records: ToolCallRecord[], text: string, images: ImageData[], formatError?: string): StepResult {
    // A turn with no call at all (neither a call nor an answer the format accepts) is not valid.
    const valid = records.length > 0 && records.every((record) => record.ok);
    this.#usefulCalls += records.filter((record) => record.ok).length;
    const truncated = this.#turns >= this.maxTurns;
    if (truncated) this.#done = true;
    const penalty = valid ? 0 : this.rewards.invalidCall;
    // The grounding reward: the first turn of the episode whose call held the target.
    const grounded = this.rewards.targetHit !== 0 && !this.#hitRewarded && records.some((record) => record.hit === true);
    if (grounded) this.#hitRewarded = true;
    const hitReward = grounded ? this.rewards.targetHit : 0;
    const info: EnvInfo = {
      rewardTerms: { ...(penalty === 0 ? {} : { invalid_call: penalty }), ...(hitReward === 0 ? {} : { target_hit: hitReward }) },
      metrics: {
        action_is_valid: valid,
        tool_call_count: records.filter((record) => record.durationMs !== undefined).length,
        ...(this.#target === undefined ? {} : { target_hit: records.some((record) => record.hit === true) }),
      },
      valid,
      toolCalls: records,
      toolCallCount: this.#toolCalls,
      turn: this.#turns,
    };
    if (this.budget !== undefined) {
      info.toolBudgetLeft = this.budgetLeft;
      if (this.#results >= this.budget.results && this.budget.forcedPrefix !== undefined) info.forcedPrefix = this.budget.forcedPrefix;
    }
    if (formatError !== undefined) info.formatError = formatError;
    if (truncated) info.truncatedBy = 'tool-use-turn-limit';
    return { observation: { text, images }, reward: penalty + hitReward, terminated: false, truncated, info };
  }

  /**
   * A demonstration of looking, present when an env under this wrapper has an oracle: while the
   * env's target has not been looked at, a call of the first tool that can `lookAt` it; then the
   * wrapped env's own oracle response.
   */
  readonly oracleResponse?: () => Promise<string>;

  async #lookingOracle(inner: () => string | Promise<string>): Promise<string> {
    if (this.#episode === undefined) throw new InvalidStateError({ operation: 'oracleResponse()', expected: 'reset() to be called first', actual: 'no episode yet' });
    const looker = [...this.#episodeTools.values()].find((tool) => tool.lookAt !== undefined);
    // The first box no look has held yet: the target, or each object a relation question names in turn.
    const next = this.#lookFor.find((_, index) => !this.#held[index]);
    if (next !== undefined && looker !== undefined && this.#toolCalls < this.maxToolCalls) {
      const args = await looker.lookAt!([...next], { images: [...this.#images], regions: [...this.#regions] });
      return `<tool_call>${JSON.stringify({ name: looker.name, arguments: args })}</tool_call>`;
    }
    return inner();
  }

  override async close(): Promise<void> {
    this.#episode?.abort(new Error('the env was closed'));
    await this.env.close();
  }

  #finish(result: StepResult): StepResult {
    let { truncated } = result;
    const info: EnvInfo = { ...result.info, toolCallCount: this.#toolCalls, turn: this.#turns };
    // The answer turn says whether any look of the episode held the target (an episode that never looked: false).
    if (this.#target !== undefined) info.metrics = { ...(result.info.metrics as Record<string, unknown> | undefined), target_hit: this.#hits > 0 };
    if (!result.terminated && !truncated && this.#turns >= this.maxTurns) {
      truncated = true;
      info.truncatedBy = 'tool-use-turn-limit';
    }
    this.#done = result.terminated || truncated;
    // Images the env shows (feedback with the picture again) join the ones tools may crop from.
    this.#images.push(...result.observation.images);
    this.#regions.push(...result.observation.images.map(() => undefined));
    const success = (info.metrics as Record<string, unknown> | undefined)?.['success'];
    if (this.rewards.toolBonus !== 0 && this.#usefulCalls > 0 && (success === true || success === 1)) {
      const bonus = this.rewards.toolBonus;
      info.rewardTerms = { ...(result.info.rewardTerms ?? { reward: result.reward }), tool_bonus: bonus };
      return { ...result, reward: result.reward + bonus, truncated, info };
    }
    return { ...result, truncated, info };
  }

  async #call(parsed: ToolCallParseResult): Promise<{ record: ToolCallRecord; text: string; images: ImageData[] }> {
    const failed = (record: ToolCallRecord, error: string) => ({ record: { ...record, ok: false, error }, text: `Error: ${error}`, images: [] });
    if (!parsed.ok) return failed({ ok: false, failure: 'parse-error' }, `could not read the tool call: ${parsed.error}.`);
    const { name, arguments: args } = parsed.call;
    const tool = this.#episodeTools.get(name);
    if (tool === undefined) {
      return failed({ name, arguments: args, ok: false, failure: 'unknown-tool' }, `unknown tool "${name.slice(0, 100)}"; expected one of: ${[...this.#episodeTools.keys()].join(', ')}.`);
    }
    if (this.#toolCalls >= this.maxToolCalls) {
      return failed({ name, arguments: args, ok: false, failure: 'limit-reached' }, `the limit of ${this.maxToolCalls} tool calls per episode is reached; "${name}" was not run. Give your final answer.`);
    }
    this.#toolCalls += 1;
    const signal = this.#signal === undefined ? this.#episode!.signal : AbortSignal.any([this.#signal, this.#episode!.signal]);
    const run = await runTool(tool, args, { images: [...this.#images], regions: [...this.#regions], signal, timeoutMs: this.timeoutMs });
    if (!run.ok) return failed({ name, arguments: args, ok: false, failure: run.kind, durationMs: run.durationMs }, `${run.message.replace(/\.$/, "")}.`);
    const images = run.result.images ?? [];
    const region = readBox(run.result.region);
    this.#images.push(...images);
    this.#regions.push(...images.map(() => region));
    const record: ToolCallRecord = { name, arguments: args, ok: true, durationMs: run.durationMs, images: images.length };
    if (region !== undefined) {
      record.region = region;
      this.#held = this.#held.map((held, index) => held || (contains(region, this.#lookFor[index]!) && shownAcross(this.#lookFor[index]!, region, images[0]) >= this.#minTargetPixels));
      if (this.#target !== undefined) {
        record.hit = contains(region, this.#target);
        if (record.hit) this.#hits += 1;
      }
    }
    return { record, text: run.result.text ?? '', images };
  }
}

/** The oracle of the outermost env in the chain that has one, bound to it. */
function innerOracle(env: Env): (() => string | Promise<string>) | undefined {
  for (let current: Env | undefined = env; current !== undefined; current = (current as { env?: Env }).env) {
    if (typeof current.oracleResponse === 'function') return current.oracleResponse.bind(current);
  }
  return undefined;
}

function positive(argument: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError({ argument, expected: 'a positive integer', value });
  return value;
}
