import type { ImageData } from './image-data';
import type { StandardSchemaV1 } from './standard-schema';

/** What a tool's `execute` receives besides its input: the episode's images (original first) and a signal that cancels the call. */
export interface ToolExecuteOptions {
  /** The images of the episode so far, original first; tools crop from these. */
  images: ImageData[];
  /**
   * For each of `images`, the part of the first image it shows, in the first image's pixels, as the
   * tool that made it said (`ToolResult.region`); undefined for the original and for images that
   * are no crop of it. Tools that take coordinates in the latest image's frame (a look closer into
   * the last crop) map them back to the original with it. Absent: no image is known to be a crop.
   */
  regions?: (ImageBox | undefined)[];
  signal?: AbortSignal;
}

/** `[x1, y1, x2, y2]` in pixels of an image (x right, y down), as V*Bench and `targetBox` give regions. */
export type ImageBox = [number, number, number, number];

/** What a tool returns; it goes back to the model in a user turn. */
export interface ToolResult {
  text?: string;
  images?: ImageData[];
  /**
   * The part of the episode's first image the result shows, in that image's pixels (tools that
   * crop or zoom). The tool-use wrapper compares it with the task's target to tell whether a look hit.
   */
  region?: ImageBox;
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
  /**
   * Optional capability: the arguments that make this tool look at `box` of the episode's first
   * image (its pixels), in the coordinates the model writes. Oracle demonstrations of tool use call
   * it; tools that do not look at regions leave it out.
   */
  lookAt?(box: ImageBox, options: ToolExecuteOptions): INPUT | Promise<INPUT>;
  /**
   * Optional capability: calls written in the response's own text instead of `<tool_call>` JSON, as
   * verl-tool's text tools read them (its python_code runs ```python blocks). A response with no
   * `<tool_call>` and no `<answer>` whose text `read` accepts is a call of this tool, and `format`
   * shapes its output (or its error) into the observation the model reads next.
   */
  textCalls?: {
    /** The call's input, or undefined when the response holds no such call. Never throws on model output. */
    read(response: string): INPUT | undefined;
    /** The observation for `output`, the text of the call's result (or of its error). */
    format(response: string, output: string): string;
  };
}
