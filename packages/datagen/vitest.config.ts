import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The grounded envs and their crop tool are reached through the registries: each test file starts with them registered.
// The files share their worker's modules (isolate: false): importing the envs, tools, models and trainers afresh for
// each file was a third of this package's test time (the setup file still runs before each file; the files also pass
// in a shuffled order).
export default mergeConfig(shared, { test: { setupFiles: ['test/register-plug-ins.ts'], isolate: false } });
