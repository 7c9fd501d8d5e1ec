import { configDefaults } from 'vitest/config';
import { withTestProjects } from '../../vitest.shared.js';

// Nearly every test file imports the whole CLI (tfjs, every env and tool package): imported afresh
// for each of its 30-odd files that cost about 40 s of CPU, so most files share their worker's
// modules (isolate: false). Each command registers the built-in envs and tools, its plug-ins and the
// tensor backend itself, so a file finds what it needs whatever ran before it.
// The files below change process-wide state that another file's run would see, or check state that
// an earlier file could have set up for them, and keep fresh modules of their own:
// - an LLM judge, once made, adds its counts to every later in-process run's metrics (train-resume
//   compares an in-process run with its child processes' runs);
// - plug-ins stay registered once loaded;
// - builtin-envs checks what registering the runner's env packages adds to an empty registry.
const ownModules = ['src/judge/llm-judge-run.test.ts', 'src/plugins.test.ts', 'src/builtin-envs.test.ts'];
export default withTestProjects((include) => [
  { extends: true, test: { name: 'shared-modules', include, exclude: [...configDefaults.exclude, ...ownModules], isolate: false } },
  { extends: true, test: { name: 'own-modules', include: ownModules } },
]);
