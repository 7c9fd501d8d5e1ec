import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The grounded envs and their crop tool are reached through the registries: each test file starts with them registered.
export default mergeConfig(shared, { test: { setupFiles: ['test/register-plug-ins.ts'] } });
