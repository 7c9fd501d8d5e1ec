// Runs Python on an image in the sandbox, as a model's call would, then a call verl-tool's way.
// After `pnpm nx build @saccade/tool-code`: node examples/code.mjs
import { runTool } from '@saccade/core';
import { encodePng } from '@saccade/image';
import { closeCodeSandboxes, codeTool, createCodeTool, formatVerlPythonObservation, readVerlPythonCall } from '../dist/index.js';

// A 3 × 1 image: red, green, blue.
const image = await encodePng({ data: Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255]), width: 3, height: 1, channels: 3 });

const code = 'print(image.width, image.height)\nprint([image.pixel(x, 0) for x in range(image.width)])';
const started = performance.now();
const run = await runTool(codeTool, { code }, { images: [image] });
console.log(`result (${Math.round(performance.now() - started)} ms, the interpreter started):`, run.ok ? run.result.text : `${run.kind}: ${run.message}`);

// verl-tool's text form: the code in a ```python block, the output in a ```result block.
const response = 'Let me count.\n```python\nprint(sum(1 for x in range(image.width) if image.pixel(x, 0)[0] > 200))\n```';
const call = readVerlPythonCall(response);
const warm = performance.now();
const counted = await runTool(codeTool, call, { images: [image] });
console.log(`verl-tool observation (${Math.round(performance.now() - warm)} ms, warm):`, JSON.stringify(formatVerlPythonObservation(response, counted.ok ? counted.result.text : counted.message)));

// Hostile code is stopped with a message; the process stays up.
const strict = createCodeTool({ timeLimitMs: 2_000, concurrency: 1 });
const loop = await runTool(strict, { code: 'while True: pass' });
console.log('an endless loop:', loop.ok ? loop.result.text : loop.message);
await closeCodeSandboxes();

