/** Has a comment. */
export const documented = 1;

export const bare = 2;

/** Has a comment. */
export function documentedFunction(): number {
  return documented + bare;
}

/** Has a comment. */
export class Documented {}

// A line comment is not TSDoc.
export class Bare {}

/** Has a comment. */
export type DocumentedType = string;
