import { describe, expect, test } from 'vitest';
import { lineChartSvg, ticks } from './line-chart-svg';

describe('ticks', () => {
  test('round steps of 1, 2 or 5 × a power of ten', () => {
    expect(ticks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(0, 600)).toEqual([0, 200, 400, 600]);
    expect(ticks(0.13, 4.87)).toEqual([1, 2, 3, 4]);
    expect(ticks(3, 3)).toEqual([3]);
  });
});

describe('lineChartSvg', () => {
  test('one polyline per series, scaled into the plot area', () => {
    const svg = lineChartSvg({
      title: 'Held-out <eval>',
      xLabel: 'step',
      yLabel: 'rate',
      yRange: [0, 1],
      width: 200,
      height: 100,
      series: [{ name: 'success', points: [[0, 0], [10, 0.5], [20, 1]] }],
    });
    // Plot area: x 64…184, y 36…52 (200×100 less the margins).
    expect(svg).toContain('<polyline data-series="success" points="64.0,52.0 124.0,44.0 184.0,36.0"');
    expect(svg).toContain('Held-out &#60;eval&#62;');
  });

  test('skips points that are not finite instead of drawing NaN', () => {
    const svg = lineChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 'loss', points: [[1, 2], [2, Number.NaN], [3, 1]] }] });
    expect(svg).not.toContain('NaN');
    expect(svg.match(/<polyline/g)).toHaveLength(1);
  });
});
