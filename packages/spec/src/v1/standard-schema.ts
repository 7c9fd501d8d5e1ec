/**
 * The Standard Schema interface (https://standardschema.dev), copied so that the spec depends on
 * no schema library. zod 4, valibot and arktype schemas implement it.
 */
export interface StandardSchemaV1<INPUT = unknown, OUTPUT = INPUT> {
  readonly '~standard': StandardSchemaV1Props<INPUT, OUTPUT>;
}

/** The `~standard` property of a Standard Schema v1 schema (zod 4, valibot, arktype). */
export interface StandardSchemaV1Props<INPUT = unknown, OUTPUT = INPUT> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
  ) => StandardSchemaV1Result<OUTPUT> | Promise<StandardSchemaV1Result<OUTPUT>>;
  readonly types?: { readonly input: INPUT; readonly output: OUTPUT } | undefined;
}

/** The result of Standard Schema v1 validation: the value, or the issues. */
export type StandardSchemaV1Result<OUTPUT> =
  | { readonly value: OUTPUT; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaV1Issue> };

/** A validation problem of Standard Schema v1: a message and where in the value it is. */
export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}
