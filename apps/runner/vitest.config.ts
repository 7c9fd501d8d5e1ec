import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The test files share their worker's modules (isolate: false). Nearly every file imports the whole
// CLI (tfjs, every env and tool package): imported afresh for each of its 30-odd files, that cost
// about 50 s of CPU, a tenth of the workspace's test budget. The files keep their own scratch
// folders and leave no state a command relies on: each command registers the built-in envs and
// tools, its plug-ins and the tensor backend itself (the files also pass in a shuffled order).
export default mergeConfig(shared, { test: { isolate: false } });
