import { SaccadeError } from '@saccade/spec';

const notFoundMarker = 'saccade.error.tool-not-found';
const alreadyMarker = 'saccade.error.tool-already-registered';
const schemaMarker = 'saccade.error.tool-schema';
const notFoundSymbol = Symbol.for(notFoundMarker);
const alreadySymbol = Symbol.for(alreadyMarker);
const schemaSymbol = Symbol.for(schemaMarker);

/** `getTool` (or a `ToolUseWrapper` given names) was asked for a tool nobody registered. */
export class ToolNotFoundError extends SaccadeError {
  private readonly [notFoundSymbol] = true;

  readonly toolName: string;
  readonly knownNames: string[];

  constructor({ toolName, knownNames }: { toolName: string; knownNames: string[] }) {
    const known =
      knownNames.length > 0
        ? ` Registered tools: ${knownNames.join(', ')}.`
        : ' No tool is registered: import the tool package and call registerTool(tool) first.';
    super({ name: 'Saccade_ToolNotFoundError', message: `No tool is registered with name "${toolName}".${known}` });
    this.toolName = toolName;
    this.knownNames = knownNames;
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return SaccadeError.hasMarker(error, notFoundMarker);
  }
}

/** `registerTool` was given a name that is taken (pass `{override: true}` to replace it). */
export class ToolAlreadyRegisteredError extends SaccadeError {
  private readonly [alreadySymbol] = true;

  readonly toolName: string;

  constructor({ toolName }: { toolName: string }) {
    super({
      name: 'Saccade_ToolAlreadyRegisteredError',
      message: `A tool named "${toolName}" is registered already; pass {override: true} to replace it.`,
    });
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolAlreadyRegisteredError {
    return SaccadeError.hasMarker(error, alreadyMarker);
  }
}

/** A tool's input schema cannot be written as JSON Schema (for the `<tools>` block of a system prompt). */
export class ToolSchemaError extends SaccadeError {
  private readonly [schemaSymbol] = true;

  readonly toolName: string;

  constructor({ toolName, reason, cause }: { toolName: string; reason: string; cause?: unknown }) {
    super({
      name: 'Saccade_ToolSchemaError',
      message: `Cannot export the input schema of tool "${toolName}" as JSON Schema: expected a zod 4 schema or a Standard JSON Schema, ${reason}.`,
      cause,
    });
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolSchemaError {
    return SaccadeError.hasMarker(error, schemaMarker);
  }
}
