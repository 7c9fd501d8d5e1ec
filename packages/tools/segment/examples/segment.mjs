// One segment call on a drawn scene, the way the ToolUseWrapper makes it.
// After `pnpm nx build @saccade/tool-segment`:
//   node examples/segment.mjs                       a segmenter made in code (pixels brighter than the click's half)
//   node examples/segment.mjs ~/models/slimsam-77   a SAM ONNX model folder (Xenova/slimsam-77-uniform layout)
// The overlay is written to segment-overlay.png.
import { writeFileSync } from 'node:fs';
import { runTool } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import { createSegmentTool } from '../dist/index.js';

const image = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="160" height="96"><rect width="160" height="96" fill="#223"/><circle cx="48" cy="48" r="28" fill="#e33"/><rect x="100" y="20" width="40" height="56" fill="#3c6"/></svg>');

console.log('without a model:', createSegmentTool({ model: undefined }).description.slice(0, 120), '…');

// Any object with segment(image, prompt) → [{mask, score}] is a segmenter; this one keeps the pixels
// whose colour is within 60 of the first point's.
const byColour = {
  async segment(raw, prompt) {
    const [point] = prompt.points;
    const at = (i) => [0, 1, 2].map((c) => raw.data[i * raw.channels + c]);
    const seed = at(Math.floor(point.y) * raw.width + Math.floor(point.x));
    const mask = Uint8Array.from({ length: raw.width * raw.height }, (_, i) => (at(i).every((value, c) => Math.abs(value - seed[c]) < 60) ? 1 : 0));
    return [{ mask, score: 1 }];
  },
  async close() {},
};
const tool = process.argv[2] === undefined ? createSegmentTool({ segmenter: byColour }) : createSegmentTool({ model: process.argv[2] });
const run = await runTool(tool, { points: [[48, 48]] }, { images: [image] });
if (!run.ok) throw new Error(`${run.kind}: ${run.message}`);
const { masks } = JSON.parse(run.result.text);
console.log('mask:', JSON.stringify({ ...masks[0], rle: { size: masks[0].rle.size, counts: `${masks[0].rle.counts.length} runs` } }));
writeFileSync('segment-overlay.png', run.result.images[0].data);
console.log('overlay: segment-overlay.png');
