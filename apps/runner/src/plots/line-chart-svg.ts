export interface LineSeries {
  name: string;
  points: readonly (readonly [number, number])[];
  colour?: string;
}

export interface LineChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly LineSeries[];
  width?: number;
  height?: number;
  /** Fixed y range (e.g. [0, 1] for rates); default: the data's range. */
  yRange?: readonly [number, number];
}

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];
const margin = { left: 64, right: 16, top: 36, bottom: 48 };

/** A plain SVG line chart (axes, ticks, labels, legend) that librsvg and browsers render alike. */
export function lineChartSvg(options: LineChartOptions): string {
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  const points = options.series.flatMap((series) => series.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const [xMin, xMax] = extent(points.map(([x]) => x));
  const [yMin, yMax] = options.yRange ?? extent(points.map(([, y]) => y));
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const sx = (x: number): number => margin.left + ((x - xMin) / (xMax - xMin || 1)) * plotWidth;
  const sy = (y: number): number => margin.top + plotHeight - ((y - yMin) / (yMax - yMin || 1)) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
  ];
  for (const tick of ticks(yMin, yMax)) {
    const y = sy(tick).toFixed(1);
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${formatTick(tick)}</text>`);
  }
  for (const tick of ticks(xMin, xMax)) {
    const x = sx(tick).toFixed(1);
    parts.push(`<text x="${x}" y="${height - margin.bottom + 18}" text-anchor="middle">${formatTick(tick)}</text>`);
  }
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#333333"/>`,
    `<text x="${margin.left + plotWidth / 2}" y="${height - 10}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  options.series.forEach((series, index) => {
    const colour = series.colour ?? palette[index % palette.length]!;
    const finite = series.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (finite.length > 0) {
      const coordinates = finite.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ');
      parts.push(`<polyline data-series="${escapeXml(series.name)}" points="${coordinates}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    }
    const legendY = margin.top + 14 + index * 16;
    parts.push(`<line x1="${width - margin.right - 120}" x2="${width - margin.right - 100}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(`<text x="${width - margin.right - 94}" y="${legendY}" dominant-baseline="middle">${escapeXml(series.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function extent(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? [low - 0.5, high + 0.5] : [low, high];
}

/** About five round ticks between low and high (1, 2 or 5 × a power of ten apart). */
export function ticks(low: number, high: number): number[] {
  const span = high - low;
  if (!(span > 0)) return [low];
  const rough = span / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? rough;
  const result: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step * 1e-9; value += step) result.push(Number(value.toPrecision(12)));
  return result;
}

function formatTick(value: number): string {
  return Math.abs(value) >= 1000 || Number.isInteger(value) ? String(Math.round(value)) : String(Number(value.toPrecision(3)));
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
