import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The grounded envs reach their crop tool through the registry: each test file starts with it registered.
export default mergeConfig(shared, { test: { setupFiles: ['test/register-tools.ts'] } });
