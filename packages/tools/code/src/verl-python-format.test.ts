import { describe, expect, it } from 'vitest';
import { formatVerlPythonObservation, MAX_OBSERVATION_LENGTH, readVerlPythonCall, verlExecutionResult } from './verl-python-format';

// Expected values follow verl-tool's python_code (verl_tool/servers/tools/python_code.py):
// parse_action, postprocess_observation(output_tag="result") and conduct_action's execution_result.
describe("verl-tool's python_code text format", () => {
  it('reads <python> tags first, then ```python blocks, then ```py blocks, joining every block', () => {
    expect(readVerlPythonCall('<python>\nx = 1\n</python> and <python>print(x)</python>')).toEqual({ code: 'x = 1\nprint(x)' });
    expect(readVerlPythonCall('Let me compute.\n```python\nprint(2 + 2)\n```\n```output')).toEqual({ code: 'print(2 + 2)' });
    expect(readVerlPythonCall('```\npython\nprint(1)\n```')).toEqual({ code: 'print(1)' });
    expect(readVerlPythonCall('```py\nprint(3)\n```')).toEqual({ code: 'print(3)' });
    // <python> wins over fenced blocks in the same response.
    expect(readVerlPythonCall('<python>a()</python>\n```python\nb()\n```')).toEqual({ code: 'a()' });
    expect(readVerlPythonCall('```python\nprint(input())\n```\n```input\n41\n```')).toEqual({ code: 'print(input())', stdin: '41' });
    expect(readVerlPythonCall('<answer>42</answer>')).toBeUndefined();
    expect(readVerlPythonCall('```javascript\nconsole.log(1)\n```')).toBeUndefined();
    expect(readVerlPythonCall(42 as unknown as string)).toBeUndefined();
  });

  it('shapes the observation as the response asked', () => {
    // Closed ```python block: a ```result block.
    expect(formatVerlPythonObservation('```python\nprint(4)\n```', '4')).toBe('\n```result\n4\n```\n');
    // The response stopped at ```output (verl-tool's stop token): only the closing fence.
    expect(formatVerlPythonObservation('```python\nprint(4)\n```\n```output', '4')).toBe('\n4\n```\n');
    expect(formatVerlPythonObservation('<tool_call><python>print(4)</python></tool_call>', '4')).toBe('\n<tool_response>\n```result\n4\n```\n</tool_response>\n');
    expect(formatVerlPythonObservation('<python>print(4)</python>\n<result> \n', '4')).toBe('\n4\n</result>\n');
    expect(formatVerlPythonObservation('<python>print(4)</python>', '4')).toBe('\n<result>\n4\n</result>\n');
    expect(formatVerlPythonObservation('```py\nprint(4)\n```', '4')).toBe('\n<result>\n4\n</result>\n');
  });

  it('joins stdout and stderr as verl-tool does and cuts at its cap', () => {
    expect(verlExecutionResult('4\n', '')).toBe('4');
    expect(verlExecutionResult('', 'Traceback …\nZeroDivisionError: division by zero\n')).toBe('Traceback …\nZeroDivisionError: division by zero');
    expect(verlExecutionResult('a\n', 'b\n')).toBe('a\n\nb');
    expect(verlExecutionResult('\tx \n', '')).toBe('\tx');
    expect(verlExecutionResult('y'.repeat(MAX_OBSERVATION_LENGTH + 10), '')).toHaveLength(100_000);
  });
});
