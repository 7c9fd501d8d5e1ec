import { InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { suggestIds } from '../registry/suggest-ids';
import type { TaskSource } from './task-source';

/** `namespace/name`, e.g. `saccade/visual-search`. */
export const TASK_SOURCE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A registered kind of task source: its id, what it makes, the options it takes and its factory. */
export interface TaskSourceSpec<OPTIONS extends Record<string, unknown> = Record<string, unknown>> {
  /** `namespace/name`, e.g. `saccade/visual-search`. */
  id: string;
  description?: string;
  /**
   * The option names the factory takes. An env that mixes its own options with its source's (a
   * grounded env over a generator) hands these to the source and keeps the rest.
   */
  options: readonly string[];
  /** Makes a source; validates its options itself (InvalidArgumentError on a bad one). */
  create: (options: OPTIONS) => TaskSource;
}

/** Options of `registerTaskSource`. */
export interface RegisterTaskSourceOptions {
  /** Replace a task source already registered under this id instead of throwing. */
  override?: boolean;
}

// One registry per process, even when several copies of @saccade/core are loaded.
const registryKey = Symbol.for('saccade.core.taskSourceRegistry');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, TaskSourceSpec> };

function registry(): Map<string, TaskSourceSpec> {
  const global = globalThis as GlobalWithRegistry;
  global[registryKey] ??= new Map();
  return global[registryKey];
}

/**
 * Registers a kind of task source (a procedural generator, a dataset reader) under an id, so that
 * an env or a command makes it by id (`makeTaskSource`) without importing the package that
 * provides it: env packages never import one another. Packages register their sources themselves.
 *
 * @example
 * registerTaskSource({ id: 'saccade/visual-search', options: ['split', 'difficulty'], create: (options) => new ProceduralSource(visualSearchGenerator, options) });
 */
export function registerTaskSource<OPTIONS extends Record<string, unknown>>(spec: TaskSourceSpec<OPTIONS>, { override = false }: RegisterTaskSourceOptions = {}): void {
  if (typeof spec?.id !== 'string' || spec.id.length > 200 || !TASK_SOURCE_ID_PATTERN.test(spec.id)) {
    throw new InvalidArgumentError({ argument: 'id', expected: 'an id of the form "namespace/name", e.g. "saccade/visual-search"', value: spec?.id });
  }
  if (typeof spec.create !== 'function') throw new InvalidArgumentError({ argument: 'create', expected: 'a function (options) => TaskSource', value: spec.create });
  if (!Array.isArray(spec.options) || !spec.options.every((name) => typeof name === 'string' && name.length > 0)) {
    throw new InvalidArgumentError({ argument: 'options', expected: 'an array of the option names the source takes', value: spec.options });
  }
  const sources = registry();
  if (sources.has(spec.id) && !override) {
    throw new InvalidStateError({ operation: 'registerTaskSource()', expected: `no task source registered as "${spec.id}" (or {override: true})`, actual: 'one is registered' });
  }
  sources.set(spec.id, spec as unknown as TaskSourceSpec);
}

/** Removes a task source; returns whether it was registered. */
export function unregisterTaskSource(id: string): boolean {
  return registry().delete(id);
}

/** The ids of all registered task sources, sorted. */
export function listTaskSources(): string[] {
  return [...registry().keys()].sort();
}

/** The registered spec for `id`, or `undefined`. */
export function getTaskSourceSpec(id: string): TaskSourceSpec | undefined {
  return registry().get(id);
}

/**
 * Makes a registered task source with `options`. Throws InvalidStateError for an id nobody
 * registered (with the registered ids and close matches), and what the factory throws for bad
 * options.
 */
export function makeTaskSource(id: string, options: Record<string, unknown> = {}): TaskSource {
  const spec = registry().get(id);
  if (spec === undefined) {
    const known = listTaskSources();
    const close = suggestIds(String(id), known);
    throw new InvalidStateError({
      operation: `makeTaskSource(${JSON.stringify(id)})`,
      expected: 'a registered task source (the package that provides it registers it, e.g. registerProceduralEnvs() of @saccade/env-procedural)',
      actual: `none is registered as ${JSON.stringify(id)}; registered: ${known.length === 0 ? 'none' : known.join(', ')}${close.length > 0 ? `; did you mean ${close.join(' or ')}?` : ''}`,
    });
  }
  const source = spec.create(options);
  if (source === null || typeof source !== 'object' || typeof source.get !== 'function' || typeof source.size !== 'function') {
    throw new InvalidArgumentError({ argument: `create of "${id}"`, expected: 'a factory that returns a TaskSource (size(), get(index), an async iterator)', value: source });
  }
  return source;
}
