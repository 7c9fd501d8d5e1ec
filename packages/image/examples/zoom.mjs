// Makes a scene with small text, then does what a zoom tool does for a model: crops the region a
// bbox names and upscales it (DeepEyes), and crops around a point with a red dot on it (ViGoRL).
// Run after a build: node packages/image/examples/zoom.mjs [output-folder]
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipBox, crop, drawBoxes, drawPoints, imageSize, renderSvg } from '../dist/index.js';

const folder = process.argv[2] ?? join(tmpdir(), 'saccade-zoom-example');
await mkdir(folder, { recursive: true });

// A 1024×768 scene whose answer is written too small to read at a glance.
const scene = await renderSvg(
  `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768">
     <rect width="1024" height="768" fill="#dfe8f0"/>
     <circle cx="300" cy="400" r="160" fill="#4a7bb7"/>
     <rect x="700" y="560" width="120" height="60" fill="#ffffff" stroke="#333"/>
     <text x="712" y="598" font-family="DejaVu Sans" font-size="18" fill="#222">code 4217</text>
   </svg>`,
);

// The model asks to zoom on bbox_2d [690, 540, 840, 640]: crop the original and upscale 3×.
const bbox = { x1: 690, y1: 540, x2: 840, y2: 640 };
const zoomed = await crop(scene, bbox, { resize: { width: 450, height: 300 } });

// Point crop around (760, 590): a ±100 px box clipped to the image, resized to 512², red dot on the point.
const point = { x: 760, y: 590 };
const region = clipBox({ x1: point.x - 100, y1: point.y - 100, x2: point.x + 100, y2: point.y + 100 }, scene.width, scene.height);
const toCrop = (value, low, high) => Math.round(((value - low) * 512) / (high - low));
const pointCrop = await drawPoints(await crop(scene, region, { resize: { width: 512, height: 512 } }), [
  { x: toCrop(point.x, region.x1, region.x2), y: toCrop(point.y, region.y1, region.y2) },
]);

const outlined = await drawBoxes(scene, [{ ...bbox, label: 'zoom' }]);
for (const [name, image] of Object.entries({ scene: outlined, zoomed, 'point-crop': pointCrop })) {
  const path = join(folder, `${name}.png`);
  await writeFile(path, image.data);
  console.log(`${path}: ${JSON.stringify(await imageSize(image))}`);
}
