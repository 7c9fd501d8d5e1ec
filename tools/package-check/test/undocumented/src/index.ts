export { bare, Bare, documented, Documented, documentedFunction } from './values';
export type { DocumentedType } from './values';
