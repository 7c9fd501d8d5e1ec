import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { ToolSchemaError } from './tool-errors';

/** A JSON Schema object (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

/** A tool as the OpenAI / Qwen / Hermes chat templates list it. */
export interface ToolFunctionSchema {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

interface StandardJsonSchemaProps {
  jsonSchema?: { input?: (options: { target: string }) => JsonSchema };
}

/**
 * The JSON Schema of a tool's arguments (what the model may send). Reads the Standard JSON Schema
 * interface when the schema library offers it, else converts zod 4 schemas with `z.toJSONSchema`;
 * throws ToolSchemaError for schemas it cannot write (such as `z.custom` or transforms without an
 * input type).
 */
export function toolInputJsonSchema(tool: Tool): JsonSchema {
  const schema = tool.inputSchema as unknown as { '~standard'?: { vendor?: string } & StandardJsonSchemaProps };
  const standard = schema?.['~standard'];
  let json: JsonSchema;
  try {
    if (standard?.jsonSchema?.input !== undefined) {
      json = standard.jsonSchema.input({ target: 'draft-2020-12' });
    } else if (standard?.vendor === 'zod') {
      json = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'throw' }) as JsonSchema;
    } else {
      throw new ToolSchemaError({ toolName: tool.name, reason: `received a schema from ${JSON.stringify(standard?.vendor ?? 'an unknown library')} without one` });
    }
  } catch (error) {
    if (ToolSchemaError.isInstance(error)) throw error;
    throw new ToolSchemaError({ toolName: tool.name, reason: `the conversion failed (${error instanceof Error ? error.message : String(error)})`, cause: error });
  }
  const { $schema: _drop, ...rest } = json;
  if (rest.type !== 'object') {
    throw new ToolSchemaError({ toolName: tool.name, reason: `received a schema of type ${JSON.stringify(rest.type)} where the arguments must be an object` });
  }
  return rest;
}

/** The `{type: "function", function: {name, description, parameters}}` entry of a tool. */
export function toolToFunctionSchema(tool: Tool): ToolFunctionSchema {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: toolInputJsonSchema(tool) } };
}

/**
 * The tool section of a system prompt, word for word as Qwen2.5(-VL)'s chat template writes it
 * (Hermes style): one JSON function signature per line inside `<tools></tools>`, then how to call.
 */
export function toolsSystemPrompt(tools: readonly Tool[]): string {
  const signatures = tools.map((tool) => JSON.stringify(toolToFunctionSchema(tool))).join('\n');
  return [
    '# Tools',
    '',
    'You may call one or more functions to assist with the user query.',
    '',
    'You are provided with function signatures within <tools></tools> XML tags:',
    '<tools>',
    signatures,
    '</tools>',
    '',
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>',
    '{"name": <function-name>, "arguments": <args-json-object>}',
    '</tool_call>',
  ].join('\n');
}
