export { createCodeTool, codeTool, closeCodeSandboxes, warmCodeSandboxes } from './code-tool';
export type { CodeToolSettings } from './code-tool';
export { PythonSandbox } from './python-sandbox';
export type { PythonCall, PythonRunResult, PythonSandboxLimits, SandboxFile, SandboxImage } from './python-sandbox';
export { SandboxLimitError, type SandboxLimit } from './sandbox-limit-error';
export { formatVerlPythonObservation, readVerlPythonCall, verlExecutionResult, MAX_OBSERVATION_LENGTH, type VerlPythonCall } from './verl-python-format';
