import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Packing and installing every package takes a while: done once (the global setup, after the shared
// one that sets the run's temporary folder), with one generous timeout. The files take turns: the
// plug-in check installs one more package into the shared project.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      testTimeout: 600_000,
      hookTimeout: 600_000,
      fileParallelism: false,
      globalSetup: [fileURLToPath(new URL('./src/installed-project.setup.ts', import.meta.url))],
    },
  }),
);
