import { escapeXml } from './line-chart-svg';

export interface Bar {
  label: string;
  value: number;
  /** A [low, high] interval drawn as a whisker (e.g. a 95 % confidence interval). */
  interval?: readonly [number, number];
  /** Shown under the label, e.g. "n = 100". */
  note?: string;
}

export interface BarChartOptions {
  title: string;
  yLabel: string;
  bars: readonly Bar[];
  /** Default [0, 1]: rates. */
  yRange?: readonly [number, number];
  width?: number;
  height?: number;
}

const margin = { left: 64, right: 16, top: 36, bottom: 72 };

/** A plain SVG bar chart with interval whiskers (accuracy by task family), rendered alike by librsvg and browsers. */
export function barChartSvg(options: BarChartOptions): string {
  const width = options.width ?? Math.max(360, 120 + options.bars.length * 90);
  const height = options.height ?? 360;
  const [yMin, yMax] = options.yRange ?? [0, 1];
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const sy = (y: number): number => margin.top + plotHeight - ((Math.min(Math.max(y, yMin), yMax) - yMin) / (yMax - yMin || 1)) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
  ];
  for (let index = 0; index <= 5; index++) {
    const tick = yMin + ((yMax - yMin) * index) / 5;
    const y = sy(tick).toFixed(1);
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${Number(tick.toFixed(2))}</text>`);
  }
  const slot = plotWidth / Math.max(1, options.bars.length);
  options.bars.forEach((bar, index) => {
    const centre = margin.left + slot * (index + 0.5);
    const barWidth = Math.min(60, slot * 0.6);
    const top = sy(bar.value);
    parts.push(
      `<rect data-bar="${escapeXml(bar.label)}" x="${(centre - barWidth / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(margin.top + plotHeight - top).toFixed(1)}" fill="#1f77b4"/>`,
      `<text x="${centre.toFixed(1)}" y="${(top - 6).toFixed(1)}" text-anchor="middle">${(bar.value * 100).toFixed(1)}%</text>`,
      `<text x="${centre.toFixed(1)}" y="${height - margin.bottom + 18}" text-anchor="middle">${escapeXml(shorten(bar.label))}</text>`,
    );
    if (bar.note !== undefined) parts.push(`<text x="${centre.toFixed(1)}" y="${height - margin.bottom + 34}" text-anchor="middle" fill="#555555">${escapeXml(bar.note)}</text>`);
    if (bar.interval !== undefined) {
      const [low, high] = [sy(bar.interval[0]).toFixed(1), sy(bar.interval[1]).toFixed(1)];
      const x = centre.toFixed(1);
      parts.push(
        `<line x1="${x}" x2="${x}" y1="${low}" y2="${high}" stroke="#333333" stroke-width="1.5"/>`,
        `<line x1="${(centre - 6).toFixed(1)}" x2="${(centre + 6).toFixed(1)}" y1="${low}" y2="${low}" stroke="#333333" stroke-width="1.5"/>`,
        `<line x1="${(centre - 6).toFixed(1)}" x2="${(centre + 6).toFixed(1)}" y1="${high}" y2="${high}" stroke="#333333" stroke-width="1.5"/>`,
      );
    }
  });
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#333333"/>`,
    `<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

// Labels are env ids or family names; long ones would run into the next bar.
function shorten(label: string): string {
  const short = label.startsWith('saccade/') ? label.slice('saccade/'.length) : label;
  return short.length > 18 ? `${short.slice(0, 17)}…` : short;
}
