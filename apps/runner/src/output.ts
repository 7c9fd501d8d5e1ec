/** Where a command writes: injected so tests can capture it. */
export interface Output {
  log(line: string): void;
  error(line: string): void;
}

/** The Output the CLI uses outside tests: lines to stdout and errors to stderr. */
export const consoleOutput: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};
