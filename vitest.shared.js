// Shared vitest settings: every package's vitest.config.ts re-exports this. The JSON report lets
// `npm test` print one closing "N passed, N failed" line over the whole workspace; the global
// setup gives each run a temporary folder of its own, removed at the end.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/results.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: [fileURLToPath(new URL('./tools/scripts/test-temp-folder.mjs', import.meta.url))],
  },
});
