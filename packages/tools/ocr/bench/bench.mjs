// OCR accuracy and latency on the bench set (bench-set.mjs: UI screenshots, small print, charts,
// low-contrast forms, articles, dark dashboards; fixed seed), against Debian's tesseract CLI in the
// same run. Target: more lines exact than tesseract at no more than its latency. JSON on stdout.
// Run after `pnpm nx build @saccade/tool-ocr`:
//   node bench/bench.mjs [--rounds 3] [--threads 2] [--misses] [--out <folder for the images>]
// --threads (default: the OCR tool's, DEFAULT_OCR_THREADS) sets our engine's threads and tesseract's
// OMP_THREAD_LIMIT alike; --misses lists each line an engine missed with what it read; --out writes
// the bench images.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { renderSvg } from '@saccade/image';
import { closeOcrEngines, createOcrTool, DEFAULT_OCR_THREADS } from '../dist/index.js';
import { BENCH_SEED, benchSet, scoreLines } from './bench-set.mjs';

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, threads: { type: 'string', default: String(DEFAULT_OCR_THREADS) }, misses: { type: 'boolean', default: false }, out: { type: 'string' } },
});
const rounds = Math.max(1, Number(flags.rounds) || 1);
const threads = Math.max(1, Number(flags.threads) || 1);
const ocr = createOcrTool({ threads });
const tesseractEnv = { ...process.env, OMP_THREAD_LIMIT: String(threads) };
const run = promisify(execFile);
const TESSERACT_MODES = [3, 6, 11]; // automatic page segmentation (its default), one uniform block, sparse text

// CPU time in ms: this process's (ours, every thread of it), and that of its finished children
// (tesseract), from /proc/self/stat's cutime and cstime in clock ticks (100 a second on Linux).
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const childrenCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round1 = (value) => Math.round(value * 10) / 10;

const scenes = await benchSet(BENCH_SEED);
const totalLines = scenes.reduce((sum, scene) => sum + scene.lines.length, 0);
if (flags.out !== undefined) {
  await mkdir(flags.out, { recursive: true });
  for (const scene of scenes) await writeFile(join(flags.out, `${scene.id}.${scene.image.mediaType === 'image/jpeg' ? 'jpg' : 'png'}`), scene.image.data);
}

// Engines: ours through the tool (sessions open once, reported apart), tesseract as a process per image.
const directory = await mkdtemp(join(tmpdir(), 'ocr-bench-'));
const files = [];
for (const [index, scene] of scenes.entries()) {
  const file = join(directory, `${index}.${scene.image.mediaType === 'image/jpeg' ? 'jpg' : 'png'}`);
  await writeFile(file, scene.image.data);
  files.push(file);
}
const engines = [
  {
    name: 'saccade',
    cpuMs: ownCpuMs,
    read: async (index) => JSON.parse((await ocr.execute({}, { images: [scenes[index].image] })).text).text.split('\n'),
  },
];
let tesseractVersion;
try {
  tesseractVersion = (await run('tesseract', ['--version'])).stdout.split('\n')[0];
  for (const mode of TESSERACT_MODES) {
    engines.push({
      name: `tesseract --psm ${mode}`,
      cpuMs: childrenCpuMs,
      read: async (index) => (await run('tesseract', [files[index], '-', '--psm', String(mode)], { env: tesseractEnv })).stdout.split('\n'),
    });
  }
} catch (error) {
  tesseractVersion = undefined;
  console.error(`tesseract is not installed or failed (${error.message.split('\n')[0]}); install Debian's tesseract-ocr to compare`);
}

let start = performance.now();
await engines[0].read(0);
const modelLoadMs = performance.now() - start;

// Interleaved: each image goes through every engine in turn, `rounds` times, so that a change in the
// machine's load falls on all engines alike. Per image, the fastest round: on a shared machine the
// slower rounds measure the other work. CPU time, summed over every call, does not depend on load.
const results = engines.map(() => ({ times: scenes.map(() => []), cpuMs: 0, calls: 0, read: [] }));
for (let pass = 0; pass < rounds; pass++) {
  for (const index of scenes.keys()) {
    for (const [engine, { read, cpuMs }] of engines.entries()) {
      const cpuBefore = cpuMs();
      start = performance.now();
      const lines = await read(index);
      results[engine].times[index].push(performance.now() - start);
      results[engine].cpuMs += cpuMs() - cpuBefore;
      results[engine].calls++;
      if (pass === 0) results[engine].read[index] = lines;
    }
  }
}
await closeOcrEngines();

// Tesseract's fixed cost per call (process start, model load), on a blank 32 × 32 image.
let tesseractStartupMs;
if (tesseractVersion !== undefined) {
  const blank = join(directory, 'blank.png');
  await writeFile(blank, (await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" fill="#fff"/></svg>')).data);
  const times = [];
  const cpuBefore = childrenCpuMs();
  for (let pass = 0; pass < 5; pass++) {
    start = performance.now();
    await run('tesseract', [blank, '-', '--psm', '6'], { env: tesseractEnv });
    times.push(performance.now() - start);
  }
  tesseractStartupMs = { wallMs: round1(Math.min(...times)), cpuMs: round1((childrenCpuMs() - cpuBefore) / times.length) };
}
await rm(directory, { recursive: true, force: true });

const kinds = [...new Set(scenes.map((scene) => scene.kind))];
const summaries = engines.map(({ name }, engine) => {
  const perImage = results[engine].times.map((times) => Math.min(...times));
  const byKind = Object.fromEntries(kinds.map((kind) => [kind, { exact: 0, lines: 0 }]));
  const misses = [];
  let exact = 0;
  for (const [index, scene] of scenes.entries()) {
    const scored = scoreLines(scene.lines, results[engine].read[index]);
    exact += scored.exact;
    byKind[scene.kind].exact += scored.exact;
    byKind[scene.kind].lines += scene.lines.length;
    if (scored.misses.length > 0) misses.push({ scene: scene.id, missed: scored.misses, read: results[engine].read[index].filter((line) => line.trim() !== '') });
  }
  return {
    engine: name,
    exact,
    linesExact: `${exact}/${totalLines}`,
    medianMsPerImage: round1(median(perImage)),
    meanMsPerImage: round1(perImage.reduce((sum, value) => sum + value, 0) / perImage.length),
    cpuMsPerImage: round1(results[engine].cpuMs / results[engine].calls),
    byKind: Object.fromEntries(Object.entries(byKind).map(([kind, { exact: found, lines }]) => [kind, `${found}/${lines}`])),
    missed: totalLines - exact,
    ...(flags.misses ? { misses } : {}),
  };
});

const [ours, ...theirs] = summaries;
const report = {
  bench: 'ocr',
  seed: BENCH_SEED,
  images: scenes.length,
  lines: totalLines,
  rounds,
  saccade: { model: 'PP-OCRv4 (onnxruntime-node)', threads, modelLoadMs: Math.round(modelLoadMs), ...ours },
  tesseract: tesseractVersion === undefined ? { skipped: "install Debian's tesseract-ocr to compare" } : { version: tesseractVersion, threads, startupPerCall: tesseractStartupMs, modes: theirs },
};
if (theirs.length > 0) {
  report.target = 'more lines exact than tesseract at no more than its latency';
  // Against each tesseract mode: the best-reading one is the one that matters.
  report.versus = theirs.map((mode) => ({
    engine: mode.engine,
    moreLinesExact: ours.exact > mode.exact,
    noSlower: ours.medianMsPerImage <= mode.medianMsPerImage,
    noMoreCpu: ours.cpuMsPerImage <= mode.cpuMsPerImage,
  }));
}
console.log(JSON.stringify(report, null, 2));
