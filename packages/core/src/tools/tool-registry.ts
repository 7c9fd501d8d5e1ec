import { InvalidArgumentError, type Tool } from '@saccade/spec';
import { ToolAlreadyRegisteredError, ToolNotFoundError } from './tool-errors';

/** What models accept as a function name (OpenAI's rule): letters, digits, `_` and `-`, 1–64 long. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// One registry per process, even when several copies of @saccade/core are loaded.
const registryKey = Symbol.for('saccade.core.toolRegistry');
const factoriesKey = Symbol.for('saccade.core.toolFactories');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, Tool>; [factoriesKey]?: Map<string, ToolFactory> };

function registry(): Map<string, Tool> {
  const global = globalThis as GlobalWithRegistry;
  global[registryKey] ??= new Map();
  return global[registryKey];
}

function factories(): Map<string, ToolFactory> {
  const global = globalThis as GlobalWithRegistry;
  global[factoriesKey] ??= new Map();
  return global[factoriesKey];
}

/** Makes a tool from settings (a package.json's `saccade.create` export, e.g. the point crop's `createPointCropTool`). */
export type ToolFactory = (settings: Record<string, unknown>) => Tool;

/** Options of `registerTool`; `SETTINGS` is what its factory takes. */
export interface RegisterToolOptions<SETTINGS = Record<string, unknown>> {
  /** Replace a tool already registered under this name instead of throwing. */
  override?: boolean;
  /**
   * Makes this tool with other settings (`createTool(name, settings)`): an env that needs its own
   * settings per task (a crop size, a dot) asks for them through the registry, never importing the
   * tool's package.
   */
  create?: (settings: SETTINGS) => Tool;
}

/**
 * Registers a tool under its name so that `getTool(name)`, `saccade tools list` and a
 * `ToolUseWrapper` given names find it. Core never learns tool names: packages register themselves.
 */
export function registerTool<SETTINGS = Record<string, unknown>>(tool: Tool, { override = false, create }: RegisterToolOptions<SETTINGS> = {}): void {
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
    throw new InvalidArgumentError({ argument: 'tool.name', expected: 'letters, digits, "_" or "-", 1 to 64 characters', value: tool?.name });
  }
  if (typeof tool.execute !== 'function') {
    throw new InvalidArgumentError({ argument: 'tool.execute', expected: 'a function (input, {images, signal}) => Promise<{text?, images?}>', value: tool.execute });
  }
  const tools = registry();
  if (create !== undefined && typeof create !== 'function') {
    throw new InvalidArgumentError({ argument: 'create', expected: 'a function (settings) => Tool', value: create });
  }
  if (tools.has(tool.name) && !override) throw new ToolAlreadyRegisteredError({ toolName: tool.name });
  tools.set(tool.name, tool);
  // A tool registered again without a factory keeps none: the old factory made the old tool.
  if (create === undefined) factories().delete(tool.name);
  // The factory validates its settings itself (they come from an env's info or JSON).
  else factories().set(tool.name, create as unknown as ToolFactory);
}

/** Removes a tool (and its factory); returns whether it was registered. */
export function unregisterTool(name: string): boolean {
  factories().delete(name);
  return registry().delete(name);
}

/**
 * The tool registered under `name`, made with `settings` by the factory it was registered with
 * (`registerTool(tool, {create})`); the tool keeps its name. Throws ToolNotFoundError for an
 * unknown name, InvalidArgumentError when the tool takes no settings or its factory refuses them.
 */
export function createTool(name: string, settings: Record<string, unknown>): Tool {
  const tool = getTool(name);
  const create = factories().get(name);
  if (create === undefined) {
    throw new InvalidArgumentError({ argument: 'settings', expected: `no settings: "${tool.name}" was registered without a factory (registerTool(tool, {create}))`, value: settings });
  }
  const made = create({ ...settings, name: tool.name });
  if (typeof made?.execute !== 'function' || made.name !== tool.name) {
    throw new InvalidArgumentError({ argument: `create of "${tool.name}"`, expected: `a factory that returns a tool named "${tool.name}"`, value: made?.name });
  }
  return made;
}

/** The tool registered under `name`; throws ToolNotFoundError naming the registered ones. */
export function getTool(name: string): Tool {
  const tool = registry().get(name);
  if (tool === undefined) throw new ToolNotFoundError({ toolName: String(name), knownNames: listTools().map((known) => known.name) });
  return tool;
}

/** Every registered tool, sorted by name. */
export function listTools(): Tool[] {
  return [...registry().values()].sort((a, b) => a.name.localeCompare(b.name));
}
