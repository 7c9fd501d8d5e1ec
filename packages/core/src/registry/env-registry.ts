import {
  EnvAlreadyRegisteredError,
  EnvNotFoundError,
  InvalidArgumentError,
  type Env,
  type EnvSpec,
} from '@saccade/spec';
import { OrderEnforcing } from '../wrappers/order-enforcing';
import { TimeLimit } from '../wrappers/time-limit';
import { suggestIds } from './suggest-ids';

/** `namespace/Name-vN`, e.g. `saccade/FrozenLake-v1` or `vista/VQA-ChartQA-v2`. */
export const ENV_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.]*(?:-[A-Za-z0-9_.]+)*-v\d+$/;

// One registry per process, even when several copies of @saccade/core are loaded.
const registryKey = Symbol.for('saccade.core.envRegistry');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, EnvSpec> };

function registry(): Map<string, EnvSpec> {
  const global = globalThis as GlobalWithRegistry;
  global[registryKey] ??= new Map();
  return global[registryKey];
}

/** Options of `registerEnv`. */
export interface RegisterEnvOptions {
  /** Replace an env already registered with this id instead of throwing. */
  override?: boolean;
}

/**
 * Registers an env under an id of the form `namespace/Name-vN` so `makeEnv(id)` can create it.
 * Env packages call it once when imported.
 *
 * @example
 * registerEnv({ id: 'saccade/FrozenLake-v1', create: (options) => new FrozenLakeEnv(options), maxTurns: 3 });
 */
export function registerEnv<OPTIONS extends object>(spec: EnvSpec<OPTIONS>, { override = false }: RegisterEnvOptions = {}): void {
  if (typeof spec?.id !== 'string' || spec.id.length > 200 || !ENV_ID_PATTERN.test(spec.id)) {
    throw new InvalidArgumentError({
      argument: 'id',
      expected: 'an id of the form "namespace/Name-vN", e.g. "saccade/FrozenLake-v1"',
      value: spec?.id,
    });
  }
  if (typeof spec.create !== 'function') {
    throw new InvalidArgumentError({ argument: 'create', expected: 'a function (options) => Env', value: spec.create });
  }
  if (spec.maxTurns !== undefined && !(Number.isSafeInteger(spec.maxTurns) && spec.maxTurns > 0)) {
    throw new InvalidArgumentError({ argument: 'maxTurns', expected: 'a positive integer', value: spec.maxTurns });
  }
  const envs = registry();
  if (envs.has(spec.id) && !override) throw new EnvAlreadyRegisteredError({ id: spec.id });
  envs.set(spec.id, spec as unknown as EnvSpec);
}

/** Removes an env from the registry; returns whether it was there. */
export function unregisterEnv(id: string): boolean {
  return registry().delete(id);
}

/** The ids of all registered envs, sorted. */
export function listEnvs(): string[] {
  return [...registry().keys()].sort();
}

/** The registered spec for `id`, or `undefined`. */
export function getEnvSpec(id: string): EnvSpec | undefined {
  return registry().get(id);
}

/**
 * Why `tools` cannot be given to the env `envId` in a tool loop around it, or undefined when they
 * can: the env calls some of them in a tool loop of its own (its spec's `usesTools`: the grounded
 * envs crop in ViGoRL's format), and a second loop around it would take those calls before the
 * env's own saw them. Runners check it before they wrap an env with `ToolUseWrapper`.
 */
export function envToolsConflict(envId: string, tools: readonly string[]): string | undefined {
  const own = registry().get(envId)?.usesTools ?? [];
  const both = tools.filter((name) => own.includes(name));
  if (both.length === 0) return undefined;
  return `tools: ${envId} calls ${both.join(', ')} in its own tool loop; expected tools it does not call itself, received ${JSON.stringify(tools)}. Drop ${both.join(', ')} from tools: the env runs it with its own options (for the grounded envs: seenSize, cells, crop, maxCrops).`;
}

/** How `makeEnv` wraps the env it creates: the turn limit and order enforcing. */
export interface MakeEnvSettings {
  /** Overrides the spec's `maxTurns`; `null` turns the time limit off. */
  maxTurns?: number | null;
  /** Wrap with `OrderEnforcing` (default true). */
  orderEnforcing?: boolean;
}

/**
 * Creates a registered env: its factory gets `{...defaultOptions, ...options}`, and the env is
 * wrapped with `OrderEnforcing` and, when the spec has `maxTurns`, `TimeLimit`.
 * Throws `EnvNotFoundError` (with close matches) for an unknown id.
 */
export function makeEnv(id: string, options: Record<string, unknown> = {}, settings: MakeEnvSettings = {}): Env {
  const spec = registry().get(id);
  if (spec === undefined) {
    const knownIds = listEnvs();
    throw new EnvNotFoundError({ id: String(id), knownIds, suggestions: suggestIds(String(id), knownIds) });
  }
  let env: Env = spec.create({ ...spec.defaultOptions, ...options });
  if (env === null || typeof env !== 'object' || env.specificationVersion !== 'v1') {
    throw new InvalidArgumentError({
      argument: `create of "${id}"`,
      expected: "a factory that returns an Env with specificationVersion 'v1'",
      value: env,
    });
  }
  if (settings.orderEnforcing !== false) env = new OrderEnforcing(env);
  const maxTurns = settings.maxTurns === undefined ? spec.maxTurns : settings.maxTurns;
  if (maxTurns !== null && maxTurns !== undefined) env = new TimeLimit(env, { maxTurns });
  return env;
}
