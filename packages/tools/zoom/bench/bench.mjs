// Zoom latency against sharp alone on the same crop (target: within 1.2×). JSON on stdout.
// Run after `pnpm nx build @saccade/tool-zoom`: node bench/bench.mjs
import sharp from 'sharp';
import { encodePng } from '@saccade/image';
import { zoomTool } from '../dist/index.js';

const width = 2048;
const height = 1536;
const pixels = new Uint8Array(width * height * 3);
for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set([(x * 7) & 255, (y * 3) & 255, (x ^ y) & 255], (y * width + x) * 3);
const image = await encodePng({ data: pixels, width, height, channels: 3 });
const box = [700, 400, 1212, 912];

const sharpCrop = () => sharp(image.data).extract({ left: box[0], top: box[1], width: box[2] - box[0], height: box[3] - box[1] }).png().toBuffer();
const toolCrop = () => zoomTool.execute({ bbox_2d: box }, { images: [image] });

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rounds = Number(process.env.ROUNDS ?? 40);
const times = { sharp: [], tool: [] };
for (let i = 0; i < 5; i++) await Promise.all([sharpCrop(), toolCrop()]);
for (let i = 0; i < rounds; i++) {
  // Interleaved, so drift on a shared machine hits both alike.
  for (const [name, run] of i % 2 === 0 ? [['sharp', sharpCrop], ['tool', toolCrop]] : [['tool', toolCrop], ['sharp', sharpCrop]]) {
    const start = performance.now();
    await run();
    times[name].push(performance.now() - start);
  }
}
const sharpMs = median(times.sharp);
const toolMs = median(times.tool);
console.log(JSON.stringify({ bench: 'zoom', image: `${width}x${height} PNG`, crop: '512x512', rounds, sharpMedianMs: +sharpMs.toFixed(2), zoomToolMedianMs: +toolMs.toFixed(2), ratio: +(toolMs / sharpMs).toFixed(3), target: 1.2, withinTarget: toolMs / sharpMs <= 1.2 }, null, 2));
