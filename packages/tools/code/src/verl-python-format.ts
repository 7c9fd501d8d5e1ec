/** Longest response the text-call reader looks at; past it the response holds no call. */
const MAX_RESPONSE_LENGTH = 1_000_000;

/** verl-tool's cap on an observation (`MAX_OBS_LENGTH`). */
export const MAX_OBSERVATION_LENGTH = 100_000;

/** What verl-tool's python_code reads from a response: the code of its blocks and the standard input. */
export interface VerlPythonCall {
  code: string;
  stdin?: string;
}

const allMatches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1] ?? '');

/**
 * Reads code as verl-tool's python_code does (`parse_action`): every `<python>…</python>` block, or
 * failing those every ```` ```python ```` block, or failing those every ```` ```py ```` block, each
 * trimmed and joined by newlines; a ```` ```input ```` block is the standard input. Undefined when
 * there is no block.
 */
export function readVerlPythonCall(response: string): VerlPythonCall | undefined {
  if (typeof response !== 'string' || response.length > MAX_RESPONSE_LENGTH) return undefined;
  let blocks = allMatches(response, /<python>([\s\S]*?)<\/python>/g);
  if (blocks.length === 0) blocks = allMatches(response, /```\n?python([\s\S]*?)```/g);
  if (blocks.length === 0) blocks = allMatches(response, /```\n?py([\s\S]*?)```/g);
  if (blocks.length === 0) return undefined;
  const code = blocks.map((block) => block.trim()).join('\n');
  const input = /```input\n([\s\S]*?)\n```/.exec(response)?.[1];
  return input === undefined ? { code } : { code, stdin: input.trim() };
}

/** Python's `str.strip(' \n')`. */
const stripSpacesAndNewlines = (text: string) => text.replace(/^[ \n]+|[ \n]+$/g, '');

/**
 * verl-tool's observation text for the output of code read from `response` (`postprocess_observation`
 * with its `result` tag): after ```` ```python ```` a ```` ```result ```` block (or the closing fence of
 * an ```` ```output ```` block the response opened), inside `<tool_response>` after a `</tool_call>`,
 * else a `<result>` element.
 */
export function formatVerlPythonObservation(response: string, output: string): string {
  const tag = 'result';
  if (response.includes('```output') || response.includes('```python')) {
    const fences = response.split('```').length - 1;
    return fences % 2 === 0 ? `\n\`\`\`${tag}\n${output}\n\`\`\`\n` : `\n${output}\n\`\`\`\n`;
  }
  if (response.includes('</tool_call>')) return `\n<tool_response>\n\`\`\`${tag}\n${output}\n\`\`\`\n</tool_response>\n`;
  if ([`<${tag}>`, `</${tag}>`, '</python>'].some((pattern) => response.includes(pattern))) {
    return stripSpacesAndNewlines(response).endsWith(`<${tag}>`) ? `\n${output}\n</${tag}>\n` : `\n<${tag}>\n${output}\n</${tag}>\n`;
  }
  return `\n<${tag}>\n${output}\n</${tag}>\n`;
}

/** verl-tool's execution result: stdout, a newline, stderr, stripped of spaces and newlines at both ends, cut to its observation cap. */
export function verlExecutionResult(stdout: string, stderr: string): string {
  return stripSpacesAndNewlines(`${stdout}\n${stderr}`).slice(0, MAX_OBSERVATION_LENGTH);
}
