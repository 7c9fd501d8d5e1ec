// OCR accuracy and latency on rendered text images, against Debian's tesseract (the C++ engine) in
// the same run. Target: more lines exact than tesseract at no more than its latency. JSON on stdout.
// Run after `pnpm nx build @saccade/tool-ocr`: node bench/bench.mjs
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderSvg } from '@saccade/image';
import { closeOcrEngines, ocrTool } from '../dist/index.js';

const run = promisify(execFile);
const escape = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

// Six UI-like images: dark on light, light on dark, small, coloured, numbers, mixed case.
const SAMPLES = [
  { background: '#ffffff', color: '#000000', size: 24, lines: ['Total: 42.50 USD', 'Invoice 2024-07', 'Due in 14 days'] },
  { background: '#1f5fbf', color: '#ffffff', size: 22, lines: ['Sign in', 'Create account', 'Forgot password?'] },
  { background: '#f4f4f4', color: '#333333', size: 16, lines: ['Revenue grew 12.5% in Q3', 'Costs fell to 1,820 units', 'Margin: 31%'] },
  { background: '#ffffff', color: '#c0392b', size: 20, lines: ['Warning: disk 91% full', 'Free 3.2 GB now'] },
  { background: '#202020', color: '#e0e0e0', size: 18, lines: ['Gate B12 boards 10:45', 'Seat 23A', 'Flight LH 2041'] },
  { background: '#fffbe6', color: '#000000', size: 26, lines: ['Chapter 7', 'The Quick Brown Fox'] },
];

async function sampleImage({ background, color, size, lines }) {
  const height = 30 + lines.length * size * 2;
  const text = lines.map((line, index) => `<text x="16" y="${24 + size + index * size * 2}" font-family="DejaVu Sans" font-size="${size}" fill="${color}">${escape(line)}</text>`).join('');
  return renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="${height}"><rect width="480" height="${height}" fill="${background}"/>${text}</svg>`);
}

const normalise = (line) => line.replace(/\s+/g, ' ').trim();
const score = (expected, readLines) => {
  const got = new Set(readLines.map(normalise).filter(Boolean));
  return expected.filter((line) => got.has(normalise(line))).length;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const images = await Promise.all(SAMPLES.map(sampleImage));
const totalLines = SAMPLES.reduce((sum, sample) => sum + sample.lines.length, 0);

// Ours: load the models once (reported apart), then time each image.
let start = performance.now();
await ocrTool.execute({}, { images: [images[0]] });
const loadMs = performance.now() - start;
const ours = { exact: 0, times: [], misses: [] };
for (const [index, image] of images.entries()) {
  start = performance.now();
  const { text } = await ocrTool.execute({}, { images: [image] });
  ours.times.push(performance.now() - start);
  const lines = JSON.parse(text).text.split('\n');
  ours.exact += score(SAMPLES[index].lines, lines);
  for (const line of SAMPLES[index].lines) if (!lines.map(normalise).includes(normalise(line))) ours.misses.push({ expected: line, read: lines });
}
await closeOcrEngines();

let tesseract;
try {
  const { stdout } = await run('tesseract', ['--version']);
  const directory = await mkdtemp(join(tmpdir(), 'ocr-bench-'));
  tesseract = { version: stdout.split('\n')[0], exact: 0, times: [], misses: [] };
  for (const [index, image] of images.entries()) {
    const file = join(directory, `${index}.png`);
    await writeFile(file, image.data);
    start = performance.now();
    const { stdout: read } = await run('tesseract', [file, '-', '--psm', '6'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    tesseract.times.push(performance.now() - start);
    const lines = read.split('\n');
    tesseract.exact += score(SAMPLES[index].lines, lines);
    for (const line of SAMPLES[index].lines) if (!lines.map(normalise).includes(normalise(line))) tesseract.misses.push({ expected: line, read: lines.filter(Boolean) });
  }
  await rm(directory, { recursive: true, force: true });
} catch (error) {
  tesseract = { skipped: `tesseract is not installed or failed (${error.message.split('\n')[0]}); install Debian's tesseract-ocr to compare` };
}

const summary = (result) => (result.times ? { linesExact: `${result.exact}/${totalLines}`, medianMsPerImage: +median(result.times).toFixed(1), misses: result.misses } : result);
const report = { bench: 'ocr', images: images.length, lines: totalLines, saccade: { model: 'PP-OCRv4 (onnxruntime-node)', modelLoadMs: +loadMs.toFixed(0), ...summary(ours) }, tesseract: summary(tesseract) };
if (tesseract.times) {
  report.target = 'more lines exact than tesseract at no more than its latency';
  report.moreLinesExact = ours.exact > tesseract.exact;
  report.noSlower = median(ours.times) <= median(tesseract.times);
}
console.log(JSON.stringify(report, null, 2));
