#!/usr/bin/env node
import { runCli } from './create-program';
import { EXIT_FAILURE } from './exit-codes';

runCli(process.argv.slice(2)).then(
  ({ exitCode }) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    // Exit once the message is out: a training thread left running by the failure (a worker whose
    // model ran out of wasm memory) would otherwise keep the process alive after the error.
    process.stderr.write(`saccade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, () => process.exit(EXIT_FAILURE));
  },
);
