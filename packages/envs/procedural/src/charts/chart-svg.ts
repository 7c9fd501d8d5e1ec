import { num, svgDocument, svgText } from '../common/svg';
import { AXIS_UNITS, CHART_HEIGHT, CHART_WIDTH, colourHex, type ChartData } from './chart-data';

const AXIS = '#333333';
const GRID = '#dddddd';

/** Whole-pixel bar and axis edges, so bar heights can be measured exactly from the PNG. */
export function chartSvg(chart: ChartData): string {
  const parts = [svgText(CHART_WIDTH / 2, 32, chart.title, { size: 18, anchor: 'middle', weight: 'bold' })];
  if (chart.kind === 'pie') parts.push(pieBody(chart));
  else parts.push(axes(chart), chart.kind === 'line' ? lineBody(chart) : barBody(chart));
  if (chart.kind === 'grouped-bar' || chart.kind === 'pie') parts.push(legend(chart));
  return svgDocument(CHART_WIDTH, CHART_HEIGHT, parts.join(''));
}

const valueY = (chart: ChartData, value: number) => chart.plot.zeroY - (value / chart.unit) * chart.plot.pixelsPerUnit;
const slotWidth = (chart: ChartData) => Math.floor((chart.plot.right - chart.plot.left) / chart.categories.length);
const format = (value: number) => String(Math.round(value * 100) / 100);

function axes(chart: ChartData): string {
  const { left, right, top, zeroY } = chart.plot;
  const parts: string[] = [];
  for (let tick = 0; tick <= AXIS_UNITS; tick += 10) {
    const value = tick * chart.unit;
    const y = valueY(chart, value);
    if (tick > 0) parts.push(`<rect x="${left}" y="${y}" width="${right - left}" height="1" fill="${GRID}"/>`);
    parts.push(svgText(left - 8, y, format(value), { size: 12, anchor: 'end', middle: true, fill: AXIS }));
  }
  parts.push(`<rect x="${left - 1}" y="${top - 10}" width="1" height="${zeroY - top + 11}" fill="${AXIS}"/>`);
  parts.push(`<rect x="${left - 1}" y="${zeroY}" width="${right - left + 1}" height="1" fill="${AXIS}"/>`);
  const slot = slotWidth(chart);
  chart.categories.forEach((category, index) => {
    parts.push(svgText(left + slot * index + slot / 2, zeroY + 20, category, { size: chart.categories.length > 6 ? 11 : 13, anchor: 'middle', fill: AXIS }));
  });
  return parts.join('');
}

function barBody(chart: ChartData): string {
  const slot = slotWidth(chart);
  const seriesCount = chart.series.length;
  const barWidth = Math.floor((slot * (seriesCount === 1 ? 0.6 : 0.8)) / seriesCount);
  const parts: string[] = [];
  chart.categories.forEach((_, index) => {
    const groupLeft = chart.plot.left + slot * index + Math.floor((slot - barWidth * seriesCount) / 2);
    chart.series.forEach((series, position) => {
      const value = series.values[index]!;
      const x = groupLeft + barWidth * position;
      const y = valueY(chart, value);
      parts.push(`<rect x="${x}" y="${y}" width="${barWidth}" height="${chart.plot.zeroY - y}" fill="${colourHex(series.colour)}"/>`);
      if (chart.showValues) parts.push(svgText(x + barWidth / 2, y - 4, format(value), { size: seriesCount > 1 ? 10 : 12, anchor: 'middle' }));
    });
  });
  return parts.join('');
}

/** Point centres sit on pixel centres (x.5), so a marker covers the same rows above and below. */
export function linePoints(chart: ChartData): { x: number; y: number }[] {
  const slot = slotWidth(chart);
  return chart.series[0]!.values.map((value, index) => ({ x: chart.plot.left + slot * index + Math.floor(slot / 2) + 0.5, y: valueY(chart, value) + 0.5 }));
}

function lineBody(chart: ChartData): string {
  const colour = colourHex(chart.series[0]!.colour);
  const points = linePoints(chart);
  const parts = [`<polyline points="${points.map((point) => `${num(point.x)},${num(point.y)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`];
  points.forEach((point, index) => {
    parts.push(`<circle cx="${num(point.x)}" cy="${num(point.y)}" r="6" fill="${colour}"/>`);
    if (chart.showValues) parts.push(svgText(point.x, point.y - 12, format(chart.series[0]!.values[index]!), { size: 12, anchor: 'middle' }));
  });
  return parts.join('');
}

/** Slices clockwise from twelve o'clock, no outlines (an outline would eat into the slices' areas). */
function pieBody(chart: ChartData): string {
  const { cx, cy, radius } = chart.pie!;
  const parts: string[] = [];
  let start = 0;
  chart.series[0]!.values.forEach((percent, index) => {
    const end = start + percent;
    const point = (at: number, r: number) => {
      const angle = (at / 100) * 2 * Math.PI - Math.PI / 2;
      return { x: cx + r * Math.cos(angle), y: cy + r * Math.sin(angle) };
    };
    const a = point(start, radius);
    const b = point(end, radius);
    const large = percent > 50 ? 1 : 0;
    parts.push(`<path d="M ${cx} ${cy} L ${num(a.x)} ${num(a.y)} A ${radius} ${radius} 0 ${large} 1 ${num(b.x)} ${num(b.y)} Z" fill="${colourHex(pieColour(chart, index))}"/>`);
    if (chart.showValues) {
      const label = point((start + end) / 2, radius + 22);
      parts.push(svgText(label.x, label.y, `${percent}%`, { size: 13, anchor: 'middle', middle: true }));
    }
    start = end;
  });
  return parts.join('');
}

/** A pie's slices take the palette in order. */
export function pieColour(chart: ChartData, index: number): ChartData['series'][number]['colour'] {
  const order = ['blue', 'orange', 'green', 'purple', 'red', 'cyan', 'yellow', 'brown'] as const;
  return chart.kind === 'pie' ? order[index % order.length]! : chart.series[index]!.colour;
}

function legend(chart: ChartData): string {
  const entries = chart.kind === 'pie' ? chart.categories : chart.series.map((series) => series.name);
  const x = CHART_WIDTH - 125;
  return entries
    .map((entry, index) => {
      const y = 90 + index * 26;
      return `<rect x="${x}" y="${y}" width="14" height="14" fill="${colourHex(pieColour(chart, index))}"/>` + svgText(x + 22, y + 7, entry, { size: 13, middle: true });
    })
    .join('');
}
