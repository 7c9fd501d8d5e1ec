/** The version of the contracts in this folder; every implementable contract carries it. */
export const SPECIFICATION_VERSION = 'v1';

/** The literal version every spec interface carries (`specificationVersion: 'v1'`). */
export type SpecificationVersion = typeof SPECIFICATION_VERSION;
