import { describe, expect, test } from 'vitest';
import { formatValue, renderLineChart, type ChartLine } from './line-chart';

const text = (lines: ChartLine[]): string[] => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('renderLineChart', () => {
  test('draws a rising line in braille with labels and the step axis', () => {
    const lines = renderLineChart({ train: [{ step: 0, value: 0 }, { step: 3, value: 1 }], eval: [{ step: 3, value: 0.5 }] }, { width: 10, height: 5 });
    // 4 plot rows × 4 columns = 8×16 dots: the line climbs two dots per dot across.
    expect(text(lines)).toEqual([' 1.00┤   ⡜', '0.500┤  ⡜◆', '     │ ⡜  ', '    0┤⡜   ', '     └0──3']);
    expect(lines[1]!.map((segment) => segment.kind)).toEqual(['axis', 'blank', 'train', 'marker']);
  });

  test('marks evaluation points and joins them when there is no training curve', () => {
    const lines = renderLineChart({ train: [], eval: [{ step: 0, value: 0 }, { step: 10, value: 1 }] }, { width: 9, height: 3 });
    expect(text(lines)).toEqual(['1.00┤  ⡠◆', '   0┤◆⠊  ', '    └0─10']);
    expect(lines[0]!.map((segment) => segment.kind)).toEqual(['axis', 'blank', 'eval', 'marker']);
  });

  test("marks a sampled evaluation's points with their own glyph; a greedy point wins a cell both fall in", () => {
    const lines = renderLineChart(
      { train: [], eval: [{ step: 0, value: 0 }, { step: 10, value: 1 }], sampled: [{ step: 0, value: 0 }, { step: 10, value: 0.5 }] },
      { width: 9, height: 4 },
    );
    // The scale takes the sampled points in; the greedy points are joined (no training curve), the sampled ones are not.
    expect(text(lines)).toEqual([' 1.00┤  ◆', '0.500┤ ⡜◇', '    0┤◆  ', '     └0']);
    expect(lines[1]!.map((segment) => segment.kind)).toEqual(['axis', 'blank', 'eval', 'sampled']);
  });

  test('widens a flat series so that it draws mid-height', () => {
    const lines = renderLineChart({ train: [{ step: 1, value: 2 }, { step: 2, value: 2 }], eval: [] }, { width: 9, height: 4 });
    expect(text(lines)).toEqual(['2.20┤    ', '2.00┤⠤⠤⠤⠤', '1.80┤    ', '    └1──2']);
  });

  test('says so when there is nothing to draw', () => {
    expect(text(renderLineChart({ train: [], eval: [] }, { width: 20, height: 3 }))).toEqual(['', 'no data yet', '']);
  });
});

test('formatValue keeps labels short', () => {
  expect([0, 0.5, 0.0004, 1.234, 12.34, 123.4, 12_345, 2_500_000, -0.25].map(formatValue)).toEqual([
    '0',
    '0.500',
    '4.0e-4',
    '1.23',
    '12.3',
    '123',
    '12.3k',
    '2.5M',
    '-0.250',
  ]);
});
