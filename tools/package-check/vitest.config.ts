import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Packing and installing every package takes a while: one generous timeout for the file.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 600_000, hookTimeout: 600_000 } }));
