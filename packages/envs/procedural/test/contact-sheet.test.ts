// Writes docs/contact-sheet.png: one row per generator, one column per difficulty, so a reviewer can
// see that the images look right and that difficulty changes them. The bytes are deterministic.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compose, imageSize, renderSvg, resize, type Layer } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { expect, it } from 'vitest';
import { ProceduralSource } from '../src/common/procedural-source';
import { svgDocument, svgText } from '../src/common/svg';
import { PROCEDURAL_VQA_ENVS } from '../src/register-procedural-envs';
import { svgReconstructionGenerator } from '../src/svg-reconstruction/svg-reconstruction-generator';

const DIFFICULTIES = [0, 1 / 3, 2 / 3, 1];
const CELL = { width: 260, height: 200 };
const LABEL_WIDTH = 150;
const HEADER = 36;

it('writes a contact sheet of samples at four difficulties', async () => {
  const generators = [...PROCEDURAL_VQA_ENVS.map((entry) => entry.generator), svgReconstructionGenerator];
  const width = LABEL_WIDTH + CELL.width * DIFFICULTIES.length;
  const height = HEADER + CELL.height * generators.length;
  const labels = [
    ...DIFFICULTIES.map((difficulty, column) => svgText(LABEL_WIDTH + CELL.width * (column + 0.5), 24, `difficulty ${Math.round(difficulty * 100) / 100}`, { size: 15, anchor: 'middle', weight: 'bold' })),
    // A light frame per cell, so white images (SVG targets) show where they end.
    ...generators.flatMap((_, row) => DIFFICULTIES.map((__, column) => `<rect x="${LABEL_WIDTH + CELL.width * column + 2}" y="${HEADER + CELL.height * row + 2}" width="${CELL.width - 4}" height="${CELL.height - 4}" fill="none" stroke="#cccccc"/>`)),
    ...generators.map((generator, row) => svgText(12, HEADER + CELL.height * (row + 0.5), generator.name, { size: 15, weight: 'bold', middle: true })),
  ];
  const layers: Layer[] = [{ image: await renderSvg(svgDocument(width, height, labels.join(''), '#ffffff'), { format: 'image/png' }), left: 0, top: 0 }];
  for (const [row, generator] of generators.entries()) {
    for (const [column, difficulty] of DIFFICULTIES.entries()) {
      const task = await new ProceduralSource(generator, { difficulty }).get(row + column);
      const thumbnail = await resize((task.images[0] as ImageData).data, { width: CELL.width - 10, height: CELL.height - 10, fit: 'inside' });
      const size = await imageSize(thumbnail);
      layers.push({
        image: thumbnail,
        left: LABEL_WIDTH + CELL.width * column + Math.floor((CELL.width - size.width) / 2),
        top: HEADER + CELL.height * row + Math.floor((CELL.height - size.height) / 2),
      });
    }
  }
  const sheet = await compose(layers, { width, height, background: '#ffffff', format: 'image/png' });
  writeFileSync(fileURLToPath(new URL('../docs/contact-sheet.png', import.meta.url)), sheet.data);
  expect(await imageSize(sheet)).toMatchObject({ width, height });
});
