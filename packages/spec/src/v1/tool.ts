import type { ImageData } from './image-data';
import type { StandardSchemaV1 } from './standard-schema';

/** What a tool's `execute` receives besides its input: the episode's images (original first) and a signal that cancels the call. */
export interface ToolExecuteOptions {
  /** The images of the episode so far, original first; tools crop from these. */
  images: ImageData[];
  signal?: AbortSignal;
}

/** What a tool returns; it goes back to the model in a user turn. */
export interface ToolResult {
  text?: string;
  images?: ImageData[];
}

/**
 * A tool the model calls with `<tool_call>{"name", "arguments"}</tool_call>`. Bad arguments and
 * failures become observations the model can read, never crashes.
 */
export interface Tool<INPUT = unknown> {
  readonly specificationVersion: 'v1';
  /** The name the model calls, e.g. `image_zoom_in_tool`. */
  name: string;
  /** What the tool does and how to call it, shown to the model. */
  description: string;
  /** Validates the arguments (zod 4 schemas qualify). */
  inputSchema: StandardSchemaV1<unknown, INPUT>;
  execute(input: INPUT, options: ToolExecuteOptions): Promise<ToolResult>;
}
