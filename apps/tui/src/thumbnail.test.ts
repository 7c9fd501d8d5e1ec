import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { FIXTURE_RUN } from './__fixtures__/load-fixture';
import { renderThumbnail } from './thumbnail';

const png = readFileSync(join(FIXTURE_RUN, 'images', 'ff49209c4b7bc24fe599eed0476cf66b979690d0ff6586d4880e450709bbb48e.png'));

test('one cell per two pixels stacked, from the image colours', async () => {
  // The 32×32 board (4×4 cells of 8 px) at 4 columns × 2 rows: one pixel per board cell.
  const thumbnail = await renderThumbnail(png, { columns: 4, rows: 2 });
  const [red, ice, hole, goal] = ['#dc2828', '#285ac8', '#fafafa', '#1eb43c'];
  expect(thumbnail).toEqual([
    [
      { top: red, bottom: ice },
      { top: ice, bottom: hole },
      { top: ice, bottom: ice },
      { top: ice, bottom: hole },
    ],
    [
      { top: ice, bottom: hole },
      { top: ice, bottom: ice },
      { top: ice, bottom: ice },
      { top: hole, bottom: goal },
    ],
  ]);
});

test('keeps the aspect ratio inside the box', async () => {
  const thumbnail = await renderThumbnail(png, { columns: 16, rows: 4 });
  expect([thumbnail.length, thumbnail[0]!.length]).toEqual([4, 8]);
});
