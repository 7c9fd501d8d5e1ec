import { checkPointInBox } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { indices, pixelsOf } from '../../test/pixels';
import { createGuiGroundingSource } from './gui-grounding-generator';
import { guiScreenSvg, type ElementRole, type GuiScreen } from './gui-screen';

const ROLES: ElementRole[] = ['button', 'icon-button', 'text-field', 'checkbox', 'list-item'];

describe('gui grounding generator', () => {
  it.each(ROLES)('%s: the pixels that change when the element is left out lie inside its box and fill it (4 seeds)', async (role) => {
    for (const index of indices(4)) {
      const task = await createGuiGroundingSource({ roles: [role], difficulty: index / 3 }).get(index);
      const { screen, target, targetBox } = task.metadata as { screen: GuiScreen; target: string; targetBox: [number, number, number, number] };
      const full = await pixelsOf(task.images[0] as ImageData);
      const without = await pixelsOf(await renderSvg(guiScreenSvg(screen, { omit: target }), { format: 'image/png' }));
      let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let y = 0; y < full.height; y++) {
        for (let x = 0; x < full.width; x++) {
          const at = (y * full.width + x) * 3;
          if (full.data[at] === without.data[at] && full.data[at + 1] === without.data[at + 1] && full.data[at + 2] === without.data[at + 2]) continue;
          [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
        }
      }
      const [x1, y1, x2, y2] = targetBox;
      expect([minX >= x1, minY >= y1, maxX < x2, maxY < y2], `${task.id}: changed pixels ${[minX, minY, maxX, maxY]} vs box ${targetBox}`).toEqual([true, true, true, true]);
      expect(maxX - minX + 1).toBeGreaterThan((x2 - x1) * (role === 'checkbox' ? 0.5 : 0.9));
      expect(maxY - minY + 1).toBeGreaterThan((y2 - y1) * 0.9);
      // A click at the changed pixels' centre is right; one just outside the box is not.
      expect(checkPointInBox(`(${(minX + maxX) / 2}, ${(minY + maxY) / 2})`, task).correct).toBe(true);
      expect(checkPointInBox(`(${x2 + 2}, ${y2 + 2})`, task).correct).toBe(false);
    }
  });

  it('elements never overlap and stay on the screen', () => {
    for (const index of indices(30)) {
      const { screen } = createGuiGroundingSource({ difficulty: (index % 5) / 4 }).generate(index).metadata as { screen: GuiScreen };
      const boxes = screen.elements.map((element) => element.box);
      for (const [i, a] of boxes.entries()) {
        expect(a[0] >= 0 && a[1] >= 0 && a[2] <= screen.width && a[3] <= screen.height).toBe(true);
        for (const b of boxes.slice(i + 1)) expect(a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1], `${a} overlaps ${b}`).toBe(true);
      }
    }
  });

  it('difficulty makes the screen larger, with more and smaller elements', () => {
    const screen = (difficulty: number) => createGuiGroundingSource({ difficulty }).generate(5).metadata.screen as GuiScreen;
    const easy = screen(0);
    const hard = screen(1);
    expect(hard.width).toBeGreaterThan(easy.width);
    expect(hard.elements.length).toBeGreaterThan(easy.elements.length + 10);
    const height = (s: GuiScreen) => s.elements[0]!.box[3] - s.elements[0]!.box[1];
    expect(height(hard)).toBeLessThan(height(easy));
  });
});
