import { InvalidArgumentError, type Tool } from '@saccade/spec';
import { ToolAlreadyRegisteredError, ToolNotFoundError } from './tool-errors';

/** What models accept as a function name (OpenAI's rule): letters, digits, `_` and `-`, 1–64 long. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// One registry per process, even when several copies of @saccade/core are loaded.
const registryKey = Symbol.for('saccade.core.toolRegistry');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, Tool> };

function registry(): Map<string, Tool> {
  const global = globalThis as GlobalWithRegistry;
  global[registryKey] ??= new Map();
  return global[registryKey];
}

/** Options of `registerTool`. */
export interface RegisterToolOptions {
  /** Replace a tool already registered under this name instead of throwing. */
  override?: boolean;
}

/**
 * Registers a tool under its name so that `getTool(name)`, `saccade tools list` and a
 * `ToolUseWrapper` given names find it. Core never learns tool names: packages register themselves.
 */
export function registerTool(tool: Tool, { override = false }: RegisterToolOptions = {}): void {
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
    throw new InvalidArgumentError({ argument: 'tool.name', expected: 'letters, digits, "_" or "-", 1 to 64 characters', value: tool?.name });
  }
  if (typeof tool.execute !== 'function') {
    throw new InvalidArgumentError({ argument: 'tool.execute', expected: 'a function (input, {images, signal}) => Promise<{text?, images?}>', value: tool.execute });
  }
  const tools = registry();
  if (tools.has(tool.name) && !override) throw new ToolAlreadyRegisteredError({ toolName: tool.name });
  tools.set(tool.name, tool);
}

/** Removes a tool; returns whether it was registered. */
export function unregisterTool(name: string): boolean {
  return registry().delete(name);
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
