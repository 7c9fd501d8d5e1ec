import { ConformanceError, type Env, type Observation, type StepResult } from '@saccade/spec';
import { countImagePlaceholders } from './count-image-placeholders';
import { describeInvalidActionSpace, findActionSpace, formatAnswer, sampleAnswer } from '../actions/action-space';
import { createRng } from '../random/create-rng';
import { describeInvalidImage } from './detect-image-media-type';

/** What `checkEnv` plays: the seed, actions to replay, the malformed actions, and the time limit of each call. */
export interface CheckEnvOptions {
  /** The seed of every reset (default 0). */
  seed?: number;
  /**
   * Actions to play after reset, for the step and determinism checks (e.g. an oracle's answer).
   * Play stops when the episode ends. Default: none; the bad actions are still tried.
   */
  actions?: string[];
  /** Malformed actions that must not throw (default: '', '<answer>', garbage, 100 KB of text). */
  badActions?: string[];
  /** Longest a single reset, step or close may take (default 10,000 ms). */
  timeoutMs?: number;
}

/** The result of `checkEnv`: whether every check passed, the env id and one line per failure. */
export interface CheckEnvReport {
  ok: boolean;
  /** The env's id, or `'unknown'` when it could not be created. */
  envId: string;
  /** One line per failed check: what was expected and what came. */
  failures: string[];
}

/** Makes a fresh env; `checkEnv` makes a second instance with it to compare determinism. */
export type EnvFactory = () => Env | Promise<Env>;

/** The malformed actions `checkEnv` steps after a reset by default: empty, an open tag, an empty answer, tool-call junk with control characters, and 100 KB of text. */
export const DEFAULT_BAD_ACTIONS: readonly string[] = [
  '',
  '<answer>',
  '<think></think><answer></answer>',
  '}{<tool_call>{"name": 42}</tool_call>\u0000\uFFFD<answer>Up</think>',
  'x'.repeat(100_000),
];

interface EpisodeTrace {
  observations: Observation[];
  rewards: number[];
}

const REWARD_TOLERANCE = 1e-6;

function short(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return json.length > 80 ? `${json.slice(0, 80)}…` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]?.slice(0, 200)}` : short(error);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks an env against the contract, like Gymnasium's `check_env`; see `CheckEnvOptions`. */
export async function checkEnv(target: Env | EnvFactory, options: CheckEnvOptions = {}): Promise<CheckEnvReport> {
  const { seed = 0, actions = [], badActions = DEFAULT_BAD_ACTIONS, timeoutMs = 10_000 } = options;
  const failures: string[] = [];
  const fail = (message: string) => {
    if (!failures.includes(message)) failures.push(message);
  };
  const factory = typeof target === 'function' ? target : undefined;

  /** Runs a call with a time limit; records a failure and returns `undefined` when it throws or hangs. */
  async function attempt<T>(label: string, call: () => T | Promise<T>): Promise<{ value: T } | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not settle within ${timeoutMs} ms`)), timeoutMs);
      });
      return { value: await Promise.race([Promise.resolve().then(call), timeout]) };
    } catch (error) {
      fail(`${label} threw ${describeError(error)}`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  function checkObservation(label: string, observation: unknown): observation is Observation {
    if (!isRecord(observation)) return (fail(`${label}: expected observation to be {text, images}, received ${short(observation)}`), false);
    const { text, images } = observation;
    if (typeof text !== 'string') return (fail(`${label}: expected observation.text to be a string, received ${short(text)}`), false);
    if (!Array.isArray(images)) return (fail(`${label}: expected observation.images to be an array, received ${short(images)}`), false);
    const placeholders = countImagePlaceholders(text);
    if (placeholders !== images.length) {
      fail(`${label}: expected one <image> placeholder per image, found ${placeholders} placeholder(s) for ${images.length} image(s)`);
    }
    images.forEach((image, index) => {
      const problem = describeInvalidImage(image);
      if (problem !== undefined) fail(`${label}: observation.images[${index}]: ${problem}`);
    });
    return true;
  }

  function checkInfo(label: string, info: unknown, reward?: number): void {
    if (!isRecord(info)) return void fail(`${label}: expected info to be an object, received ${short(info)}`);
    const { rewardTerms, metrics } = info;
    if (rewardTerms !== undefined) {
      if (!isRecord(rewardTerms) || !Object.values(rewardTerms).every((term) => typeof term === 'number' && Number.isFinite(term))) {
        fail(`${label}: expected info.rewardTerms to map names to finite numbers, received ${short(rewardTerms)}`);
      } else if (reward !== undefined) {
        const sum = Object.values(rewardTerms as Record<string, number>).reduce((total, term) => total + term, 0);
        if (Math.abs(sum - reward) > REWARD_TOLERANCE * Math.max(1, Math.abs(reward))) {
          fail(`${label}: expected reward to equal the sum of info.rewardTerms (${sum}), received ${reward} (terms ${short(rewardTerms)})`);
        }
      }
    }
    if (metrics !== undefined) {
      if (!isRecord(metrics) || !Object.values(metrics).every((value) => typeof value === 'number' || typeof value === 'boolean')) {
        fail(`${label}: expected info.metrics to map names to numbers or booleans, received ${short(metrics)}`);
      }
    }
  }

  function checkStep(label: string, result: unknown): result is StepResult {
    if (!isRecord(result)) return (fail(`${label}: expected {observation, reward, terminated, truncated, info}, received ${short(result)}`), false);
    const missing = ['observation', 'reward', 'terminated', 'truncated', 'info'].filter((key) => !(key in result));
    if (missing.length > 0) fail(`${label}: expected the result to have {observation, reward, terminated, truncated, info}, missing ${missing.join(', ')}`);
    const observationOk = checkObservation(label, result.observation);
    const { reward, terminated, truncated } = result;
    const rewardOk = typeof reward === 'number' && Number.isFinite(reward);
    if (!rewardOk) fail(`${label}: expected reward to be a finite number, received ${short(reward)}`);
    if (typeof terminated !== 'boolean') fail(`${label}: expected terminated to be a boolean, received ${short(terminated)}`);
    if (typeof truncated !== 'boolean') fail(`${label}: expected truncated to be a boolean, received ${short(truncated)}`);
    checkInfo(label, result.info, rewardOk ? (reward as number) : undefined);
    return observationOk && rewardOk;
  }

  /** Resets with the seed and plays the actions; `undefined` when reset fails. */
  async function playEpisode(env: Env, which: string): Promise<EpisodeTrace | undefined> {
    const resetLabel = `${which}reset({seed: ${seed}})`;
    const reset = await attempt(resetLabel, () => env.reset({ seed }));
    if (reset === undefined) return undefined;
    if (!isRecord(reset.value)) return void fail(`${resetLabel}: expected {observation, info}, received ${short(reset.value)}`);
    if (!checkObservation(resetLabel, reset.value.observation)) return undefined;
    checkInfo(resetLabel, reset.value.info);
    const trace: EpisodeTrace = { observations: [reset.value.observation], rewards: [] };
    for (const [index, action] of actions.entries()) {
      const label = `${which}step(${short(action)}) (action ${index + 1} of ${actions.length})`;
      const step = await attempt(label, () => env.step(action));
      if (step === undefined || !checkStep(label, step.value)) return trace;
      trace.observations.push(step.value.observation);
      trace.rewards.push(step.value.reward);
      if (step.value.terminated || step.value.truncated) break;
    }
    return trace;
  }

  function compareTraces(what: string, first: EpisodeTrace, second: EpisodeTrace): void {
    const prefix = `determinism (${what}, seed ${seed})`;
    const steps = Math.min(first.observations.length, second.observations.length);
    for (let i = 0; i < steps; i++) {
      const a = first.observations[i]!;
      const b = second.observations[i]!;
      const when = i === 0 ? 'after reset' : `after action ${i}`;
      if (a.text !== b.text) {
        let at = 0;
        while (at < a.text.length && a.text[at] === b.text[at]) at++;
        fail(`${prefix}: expected the same observation text ${when}, but it differs at character ${at}: ${short(a.text.slice(at, at + 40))} vs ${short(b.text.slice(at, at + 40))}`);
        return;
      }
      if (a.images.length !== b.images.length || a.images.some((image, k) => !sameBytes(image.data, b.images[k]?.data))) {
        fail(`${prefix}: expected the same image bytes ${when}, but the images differ`);
        return;
      }
    }
    if (first.observations.length !== second.observations.length) {
      fail(`${prefix}: expected the same episode length, received ${first.rewards.length} then ${second.rewards.length} steps`);
    }
    const rewards = Math.min(first.rewards.length, second.rewards.length);
    for (let i = 0; i < rewards; i++) {
      if (first.rewards[i] !== second.rewards[i]) {
        fail(`${prefix}: expected the same reward for action ${i + 1}, received ${first.rewards[i]} then ${second.rewards[i]}`);
        return;
      }
    }
  }

  const created = factory ? await attempt('the env factory', factory) : { value: target as Env };
  if (created === undefined) return { ok: false, envId: 'unknown', failures };
  const env = created.value;
  if (typeof env !== 'object' || env === null) {
    fail(`expected an Env object, received ${short(env)}`);
    return { ok: false, envId: 'unknown', failures };
  }
  if (env.specificationVersion !== 'v1') fail(`expected specificationVersion 'v1', received ${short(env.specificationVersion)}`);
  if (typeof env.id !== 'string' || env.id.length === 0) fail(`expected id to be a non-empty string, received ${short(env.id)}`);
  for (const method of ['reset', 'step', 'systemPrompt', 'close'] as const) {
    if (typeof env[method] !== 'function') fail(`expected a ${method}() method, received ${short(env[method])}`);
  }
  const envId = typeof env.id === 'string' ? env.id : 'unknown';
  if (failures.length > 0) return { ok: false, envId, failures };

  const prompt = await attempt('systemPrompt()', () => env.systemPrompt());
  if (prompt !== undefined && (typeof prompt.value !== 'string' || prompt.value.trim().length === 0)) {
    fail(`systemPrompt(): expected a non-empty string, received ${short(prompt.value)}`);
  }

  const first = await playEpisode(env, '');
  if (first !== undefined) {
    const again = await playEpisode(env, 'second ');
    if (again !== undefined) compareTraces('two resets of one env', first, again);
    if (factory) {
      const other = await attempt('the env factory (second instance)', factory);
      if (other !== undefined) {
        const fresh = await playEpisode(other.value, 'second instance: ');
        if (fresh !== undefined) compareTraces('two instances', first, fresh);
        await attempt('second instance: close()', () => other.value.close());
      }
    }
    // An env that declares its action space: the space is valid, and a random answer from it in the
    // space's format is a step like any other.
    const reset = await attempt(`reset({seed: ${seed}}) before the action space`, () => env.reset({ seed }));
    if (reset !== undefined) {
      const space = await attempt('actionSpace()', () => findActionSpace(env));
      if (space?.value !== undefined) {
        const problem = describeInvalidActionSpace(space.value);
        if (problem !== undefined) fail(problem);
        else {
          const answerSpace = space.value.kind === 'tool-calls' ? space.value.answer : space.value;
          const action = formatAnswer(answerSpace.format, sampleAnswer(space.value, createRng(seed)));
          const label = `step(${short(action)}) (a random answer from actionSpace())`;
          const step = await attempt(label, () => env.step(action));
          if (step !== undefined) checkStep(label, step.value);
        }
      }
    }
    for (const action of badActions) {
      const label = `step(${short(action)}) (a malformed action, after reset)`;
      const reset = await attempt(`reset({seed: ${seed}}) before a malformed action`, () => env.reset({ seed }));
      if (reset === undefined) break;
      const step = await attempt(label, () => env.step(action));
      if (step !== undefined) checkStep(label, step.value);
    }
  }

  const closed = await attempt('close()', () => env.close());
  if (closed !== undefined) await attempt('close() a second time (close must be idempotent)', () => env.close());
  return { ok: failures.length === 0, envId, failures };
}

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Runs `checkEnv` and throws a `ConformanceError` listing every failure. */
export async function assertEnv(target: Env | EnvFactory, options: CheckEnvOptions = {}): Promise<void> {
  const report = await checkEnv(target, options);
  if (!report.ok) throw new ConformanceError({ subject: `Env "${report.envId}"`, failures: report.failures });
}
