export { createProgram, runCli, type RunCliResult } from './create-program';
export { registerBuiltinEnvs } from './builtin-envs';
export { EXIT_CANCELLED, EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
export { consoleOutput, type Output } from './output';
export { registerBuiltinTools } from './builtin-tools';
export { passAtK, summarizeEval, wilsonInterval, type EvalSummary } from '@saccade/runs';
