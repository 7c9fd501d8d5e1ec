// Model-output parsers on fuzzed text: a fixed seed and count, every parser, no throw; and
// parseFinalAnswer's answer is exactly the one after the last prefix whatever comes before it
// (characters whose lower case is longer, 'İ', included). Prints JSON.
import { createRng, extractTagContent, OUTPUT_FORMATS, parseFinalAnswer, parseFormattedResponse, parsePoints, parseToolCalls, splitActions } from '../dist/index.js';

const seed = 23;
const count = Number(process.argv[2] ?? 200_000);
const rng = createRng(seed);
const pieces = ['İ', 'ẞ', 'Σ', 'ǅ', 'ﬀ', '\u{1F600}', '\u0000', '<answer>', '</answer>', '<think>', '</think>', '<tool_call>', '</tool_call>', '{"name": "calculator", "arguments": {"expression": "1+1"}}', '## FINAL_ANSWER:', 'Answer:', '(12, 34)', 'Up, Down', '__proto__', '{"__proto__": {"x": 1}}', ' ', '\n', 'x', '7', ',', '"', '{', '}'];
let throws = 0;
let mismatches = 0;
const started = performance.now();
for (let index = 0; index < count; index++) {
  let text = '';
  const length = rng.int(0, 40);
  for (let piece = 0; piece < length; piece++) text += pieces[rng.int(0, pieces.length - 1)];
  try {
    parseFormattedResponse(text, { format: OUTPUT_FORMATS[rng.int(0, OUTPUT_FORMATS.length - 1)] });
    parseToolCalls(text);
    parsePoints(text);
    splitActions(text);
    extractTagContent(text, 'answer');
    // The known answer after the last prefix, with noise (no prefix or tag of its own) before it.
    const answer = `${rng.int(0, 99_999)}z`;
    const noise = text.replace(/answer|<\/?answer>/gi, '');
    const found = parseFinalAnswer(`${noise}\n${rng.next() < 0.5 ? 'Answer: ' : '## FINAL_ANSWER: '}${answer}`);
    if (found?.answer !== answer) mismatches++;
  } catch {
    throws++;
  }
}
const polluted = {}.x !== undefined;
console.log(JSON.stringify({ seed, count, throws, finalAnswerMismatches: mismatches, prototypePolluted: polluted, ms: Math.round(performance.now() - started) }));
