import { mergeConfig } from 'vitest/config';
import shared from '../../../vitest.shared.js';

// The grounded envs reach their crop tool and their procedural task sources through the registries: each test file starts with them registered.
export default mergeConfig(shared, { test: { setupFiles: ['test/register-plug-ins.ts'] } });
