import { mergeConfig } from 'vitest/config';
import shared from '../../../vitest.shared.js';

// The test files share their worker's modules (isolate: false): importing the renderers and the env
// packages afresh for each file was half of this package's test time. Each file registers the envs
// it plays itself (the files also pass in a shuffled order).
export default mergeConfig(shared, { test: { isolate: false } });
