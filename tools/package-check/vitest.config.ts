import { fileURLToPath } from 'node:url';
import { configDefaults } from 'vitest/config';
import { withTestProjects } from '../../vitest.shared.js';

// The files that need Saccade packed and installed (`installed`) run after a global setup that does
// it once (after the shared one that sets the run's temporary folder), with one generous timeout,
// taking turns: the plug-in check installs one more package into the shared project. The checks
// that read the workspace itself (`workspace`: package layers, TSDoc, npm test's requirements) need
// none of it: `vitest run --project workspace` runs them alone in seconds.
const installed = ['src/packages.test.ts', 'src/plugin-package.test.ts'];
export default withTestProjects((include) => [
  { extends: true, test: { name: 'workspace', include, exclude: [...configDefaults.exclude, ...installed] } },
  {
    extends: true,
    test: {
      name: 'installed',
      include: installed,
      testTimeout: 600_000,
      hookTimeout: 600_000,
      fileParallelism: false,
      globalSetup: [fileURLToPath(new URL('./src/installed-project.setup.ts', import.meta.url))],
    },
  },
]);
