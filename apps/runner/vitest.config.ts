// Each test file gets fresh modules (vitest's default isolation). Sharing them (isolate: false)
// saved ~50 s of CPU, but a fresh clone's file order showed process-wide state reaching another
// file's run: once any file made an LLM judge, every later in-process run added judge counts to its
// metrics, so train-resume's in-process run no longer matched its child processes' runs.
export { default } from '../../vitest.shared.js';
