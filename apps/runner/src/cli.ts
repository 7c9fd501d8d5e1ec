#!/usr/bin/env node
import { runCli } from './create-program';
import { EXIT_FAILURE } from './exit-codes';

runCli(process.argv.slice(2)).then(
  ({ exitCode }) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    process.stderr.write(`saccade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
