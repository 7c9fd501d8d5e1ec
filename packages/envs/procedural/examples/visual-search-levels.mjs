// One task of each visual-search level: prints its question, choices, answer and boxes, and writes
// the image as the policy sees it: the whole 2048-px image at 128 px (16× down), ViGoRL's 364-px
// crop around the target at 128 px (2.8× down), and a 128-px crop at 128 px (1:1, the closer look).
//   pnpm --filter @saccade/env-procedural build && node packages/envs/procedural/examples/visual-search-levels.mjs [outDir] [index]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crop, resize } from '@saccade/image';
import { createVisualSearchSource, VISUAL_SEARCH_LEVEL_NAMES, VISUAL_SEARCH_LEVELS } from '../dist/index.js';

const outDir = process.argv[2] ?? 'visual-search-levels';
const index = Number(process.argv[3] ?? 0);
const VIEW = 128;
mkdirSync(outDir, { recursive: true });

/** The square of side `side` around the box's centre, its view at 128 px. */
const look = (image, [x1, y1, x2, y2], side) => {
  const [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
  return crop(image, { x1: cx - side / 2, y1: cy - side / 2, x2: cx + side / 2, y2: cy + side / 2 }, { resize: { width: VIEW, height: VIEW, fit: 'fill' } });
};

for (const level of VISUAL_SEARCH_LEVEL_NAMES) {
  const task = await createVisualSearchSource({ level, split: 'test' }).get(index);
  const { targetBox, targetBoxes, target, distractors, lookalikes } = task.metadata;
  const image = task.images[0];
  const across = targetBox[2] - targetBox[0];
  console.log(`${level} (${JSON.stringify(VISUAL_SEARCH_LEVELS[level])}), ${task.id}`);
  console.log(`  ${task.question}${task.choices ? ` [${task.choices.join(' | ')}]` : ''} → ${JSON.stringify(task.answer)}`);
  console.log(`  ${target.colour} ${target.shape}, ${across} px across: ${(across / (image.width / VIEW)).toFixed(1)} px in the ${VIEW}-px view, ${(across / (364 / VIEW)).toFixed(1)} px in a 364-px crop, ${across} px in a ${VIEW}-px crop`);
  console.log(`  targetBox ${JSON.stringify(targetBox)}${targetBoxes ? `, targetBoxes ${JSON.stringify(targetBoxes)}` : ''}; ${distractors} distractors${lookalikes ? `, look-alikes ${JSON.stringify(lookalikes)}` : ''}`);
  writeFileSync(join(outDir, `${level}.png`), image.data);
  writeFileSync(join(outDir, `${level}-view.png`), (await resize(image, { width: VIEW, height: VIEW, fit: 'fill' })).data);
  for (const [which, box] of (targetBoxes ?? [targetBox]).entries()) {
    const suffix = which === 0 ? '' : `-${which + 1}`;
    writeFileSync(join(outDir, `${level}-crop364${suffix}.png`), (await look(image, box, 364)).data);
    writeFileSync(join(outDir, `${level}-crop128${suffix}.png`), (await look(image, box, VIEW)).data);
  }
}
console.log(`images written to ${outDir}/`);
