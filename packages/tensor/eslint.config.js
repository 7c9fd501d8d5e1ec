// The workspace's config, minus the AssemblyScript sources (assembly/: not TypeScript that
// typescript-eslint can parse, e.g. decorators on functions; `asc` checks them when it builds).
import workspace from '../../eslint.config.js';

export default [{ ignores: ['assembly/**'] }, ...workspace];
