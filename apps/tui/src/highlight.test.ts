import { expect, test } from 'vitest';
import { highlightText } from './highlight';

test('splits tool calls, tool results, reasoning and answers from plain text', () => {
  expect(highlightText('I look. <think>hmm</think><tool_call>{"name":"zoom"}</tool_call> then <answer>B</answer>!')).toEqual([
    { text: 'I look. ', kind: 'text' },
    { text: '<think>hmm</think>', kind: 'think' },
    { text: '<tool_call>{"name":"zoom"}</tool_call>', kind: 'tool-call' },
    { text: ' then ', kind: 'text' },
    { text: '<answer>B</answer>', kind: 'answer' },
    { text: '!', kind: 'text' },
  ]);
  expect(highlightText('<tool_response>3 cars</tool_response> <image>')).toEqual([
    { text: '<tool_response>3 cars</tool_response>', kind: 'tool-result' },
    { text: ' <image>', kind: 'text' },
  ]);
});

test('never throws on malformed model output', () => {
  // An unclosed call runs to the end (generation stopped at the stop string); stray closers stay text.
  expect(highlightText('</answer> x <tool_call>{"name"')).toEqual([
    { text: '</answer> x ', kind: 'text' },
    { text: '<tool_call>{"name"', kind: 'tool-call' },
  ]);
  expect(highlightText('')).toEqual([]);
});
