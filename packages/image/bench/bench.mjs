// Decode + crop + resize to 448² + PNG encode of a 1024×768 PNG: @saccade/image (built dist) vs
// sharp alone doing the same work. The variants alternate in ABBA order within each round and the
// figures are medians over rounds, so load from other processes falls on both alike.
// Usage: pnpm --filter @saccade/image bench [-- --rounds 60 --batch 2]
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { crop, encodePng } from '../dist/index.js';

const { values } = parseArgs({
  // pnpm passes the `--` that separates script arguments through.
  args: process.argv.slice(2).filter((argument) => argument !== '--'),
  options: { rounds: { type: 'string', default: '60' }, batch: { type: 'string', default: '2' } },
});
const rounds = Number(values.rounds);
const batch = Number(values.batch);

// A 1024×768 picture with structure (gradients and a texture), not flat colour or pure noise.
const width = 1024;
const height = 768;
const pixels = new Uint8Array(width * height * 3);
for (let y = 0; y < height; y += 1) {
  for (let x = 0; x < width; x += 1) pixels.set([x & 255, y & 255, (x * y) >> 6 & 255], (y * width + x) * 3);
}
const source = await encodePng({ data: pixels, width, height, channels: 3 });
const bytes = Buffer.from(source.data);
const box = { x1: 200, y1: 150, x2: 712, y2: 598 };

const variants = {
  saccade: () => crop(source, box, { resize: { width: 448, height: 448 }, format: 'image/png' }),
  sharp: () =>
    sharp(bytes)
      .extract({ left: box.x1, top: box.y1, width: box.x2 - box.x1, height: box.y2 - box.y1 })
      .resize({ width: 448, height: 448, fit: 'fill', kernel: 'lanczos3' })
      .png()
      .toBuffer({ resolveWithObject: true }),
};

// Both must produce the same image, or the comparison means nothing.
const [ours, theirs] = [await variants.saccade(), await variants.sharp()];
if (!Buffer.from(ours.data).equals(theirs.data)) throw new Error('the two variants produced different PNGs');

// Wall time and CPU time (user + system over all the process's threads, libvips' included) per
// operation. CPU time barely moves when other processes compete for the cores; wall time does.
async function timeBatch(run) {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let index = 0; index < batch; index += 1) await run();
  const cpu = process.cpuUsage(cpuStart);
  return { wall: Number(process.hrtime.bigint() - start) / 1e6 / batch, cpu: (cpu.user + cpu.system) / 1e3 / batch };
}

for (let index = 0; index < 2; index += 1) {
  await timeBatch(variants.saccade);
  await timeBatch(variants.sharp);
}

const times = { saccade: [], sharp: [] };
const cpuTimes = { saccade: [], sharp: [] };
const ratios = [];
const cpuRatios = [];
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? ['saccade', 'sharp', 'sharp', 'saccade'] : ['sharp', 'saccade', 'saccade', 'sharp'];
  const wall = { saccade: 0, sharp: 0 };
  const cpu = { saccade: 0, sharp: 0 };
  for (const name of order) {
    const time = await timeBatch(variants[name]);
    wall[name] += time.wall / 2;
    cpu[name] += time.cpu / 2;
  }
  for (const name of ['saccade', 'sharp']) {
    times[name].push(wall[name]);
    cpuTimes[name].push(cpu[name]);
  }
  ratios.push(wall.saccade / wall.sharp);
  cpuRatios.push(cpu.saccade / cpu.sharp);
}

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (position - low);
};
const median = (list) => quantile(list, 0.5);
const round3 = (value) => Math.round(value * 1000) / 1000;
const saccadeMs = median(times.saccade);
const sharpMs = median(times.sharp);

console.log(
  JSON.stringify(
    {
      work: 'decode 1024x768 PNG + crop 512x448 + resize 448x448 (lanczos3) + encode PNG',
      rounds,
      batch,
      saccade: { msPerOp: round3(saccadeMs), opsPerSecond: round3(1000 / saccadeMs), cpuMsPerOp: round3(median(cpuTimes.saccade)) },
      sharp: { msPerOp: round3(sharpMs), opsPerSecond: round3(1000 / sharpMs), cpuMsPerOp: round3(median(cpuTimes.sharp)) },
      // Median of per-round ratios: each round's pair ran back to back, so drift cancels.
      overheadPercent: round3((median(ratios) - 1) * 100),
      overheadPercentOfMedians: round3((saccadeMs / sharpMs - 1) * 100),
      // The spread of the per-round ratios shows how much of the figure is noise.
      overheadPercentInterquartile: [round3((quantile(ratios, 0.25) - 1) * 100), round3((quantile(ratios, 0.75) - 1) * 100)],
      cpuOverheadPercent: round3((median(cpuRatios) - 1) * 100),
      cpuOverheadPercentInterquartile: [round3((quantile(cpuRatios, 0.25) - 1) * 100), round3((quantile(cpuRatios, 0.75) - 1) * 100)],
      node: process.version,
      sourcePngBytes: bytes.length,
      versions: { sharp: sharp.versions.sharp, vips: sharp.versions.vips },
    },
    null,
    2,
  ),
);
