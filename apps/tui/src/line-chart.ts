import type { Series, SeriesPoint } from './run-state';

export type ChartSegmentKind = 'axis' | 'train' | 'eval' | 'marker' | 'sampled' | 'blank';

/** A run of characters of one kind in a chart row: the renderer colours it by kind. */
export interface ChartSegment {
  text: string;
  kind: ChartSegmentKind;
}

/** One terminal row of a chart: runs of text of one kind (one colour each). */
export type ChartLine = ChartSegment[];

/** The chart's size in terminal cells. */
export interface LineChartOptions {
  /** Columns, labels included. */
  width: number;
  /** Rows, the step axis included. */
  height: number;
}

/** The glyph of an evaluation point. */
export const EVAL_MARKER = '◆';
/** The glyph of a sampled evaluation's point (mean@n at a temperature, beside the greedy one). */
export const SAMPLED_MARKER = '◇';

// Braille cells hold 2×4 dots: bit of the dot at (column, row) within the cell.
const DOT_BITS = [
  [0x01, 0x02, 0x04, 0x40],
  [0x08, 0x10, 0x20, 0x80],
] as const;

/**
 * Draws a series as a braille line chart: the training curve as a line, evaluation points as
 * markers (joined by a line when there is no training curve, as in supervised runs where only
 * evaluation measures success), and a sampled evaluation's points as markers of their own (a greedy
 * marker wins a cell both fall in). Pure: the same input gives the same rows.
 */
export function renderLineChart(series: Series, options: LineChartOptions): ChartLine[] {
  const height = Math.max(2, Math.floor(options.height));
  const plotRows = height - 1;
  const sampled = series.sampled ?? [];
  const all = [...series.train, ...series.eval, ...sampled];
  if (all.length === 0) {
    const lines: ChartLine[] = Array.from({ length: height }, () => [{ text: '', kind: 'blank' }]);
    lines[Math.floor(plotRows / 2)] = [{ text: 'no data yet', kind: 'axis' }];
    return lines;
  }
  let minY = Math.min(...all.map((point) => point.value));
  let maxY = Math.max(...all.map((point) => point.value));
  if (minY === maxY) {
    const pad = minY === 0 ? 1 : Math.abs(minY) * 0.1;
    minY -= pad;
    maxY += pad;
  }
  const minX = Math.min(...all.map((point) => point.step));
  const maxX = Math.max(...all.map((point) => point.step));
  // Top, middle (when there is a row for it) and bottom labels.
  const middleRow = plotRows >= 3 ? Math.floor((plotRows - 1) / 2) : -1;
  const labels = [formatValue(maxY), middleRow >= 0 ? formatValue((minY + maxY) / 2) : '', formatValue(minY)];
  const labelWidth = Math.max(...labels.map((label) => label.length));
  const plotColumns = Math.max(1, Math.floor(options.width) - labelWidth - 1);
  const dotsX = plotColumns * 2;
  const dotsY = plotRows * 4;

  const toDot = (point: SeriesPoint): [number, number] => {
    const x = maxX === minX ? 0 : Math.round(((point.step - minX) / (maxX - minX)) * (dotsX - 1));
    const y = Math.round(((point.value - minY) / (maxY - minY)) * (dotsY - 1));
    return [x, dotsY - 1 - y];
  };
  const train = new Uint8Array(plotColumns * plotRows);
  const evalLine = new Uint8Array(plotColumns * plotRows);
  const markers = new Uint8Array(plotColumns * plotRows);
  const sampledMarkers = new Uint8Array(plotColumns * plotRows);
  const plot = (cells: Uint8Array, x: number, y: number): void => {
    const cell = Math.floor(y / 4) * plotColumns + Math.floor(x / 2);
    cells[cell] = cells[cell]! | DOT_BITS[x % 2 as 0 | 1][y % 4 as 0 | 1 | 2 | 3];
  };
  drawPolyline(series.train.map(toDot), (x, y) => plot(train, x, y));
  if (series.train.length === 0) drawPolyline(series.eval.map(toDot), (x, y) => plot(evalLine, x, y));
  const mark = (cells: Uint8Array, point: SeriesPoint): void => {
    const [x, y] = toDot(point);
    cells[Math.floor(y / 4) * plotColumns + Math.floor(x / 2)] = 1;
  };
  for (const point of series.eval) mark(markers, point);
  for (const point of sampled) mark(sampledMarkers, point);

  const lines: ChartLine[] = [];
  for (let row = 0; row < plotRows; row++) {
    const label = row === 0 ? labels[0]! : row === plotRows - 1 ? labels[2]! : row === middleRow ? labels[1]! : '';
    const line = new LineBuilder();
    line.add(label.padStart(labelWidth) + (label === '' ? '│' : '┤'), 'axis');
    for (let column = 0; column < plotColumns; column++) {
      const cell = row * plotColumns + column;
      if (markers[cell]) line.add(EVAL_MARKER, 'marker');
      else if (sampledMarkers[cell]) line.add(SAMPLED_MARKER, 'sampled');
      else if (train[cell]) line.add(String.fromCharCode(0x2800 + train[cell]!), 'train');
      else if (evalLine[cell]) line.add(String.fromCharCode(0x2800 + evalLine[cell]!), 'eval');
      else line.add(' ', 'blank');
    }
    lines.push(line.segments);
  }
  // The step axis: first and last step written into the rule.
  const first = String(minX);
  const last = maxX === minX ? '' : String(maxX);
  const rule = plotColumns > first.length + last.length ? first + '─'.repeat(plotColumns - first.length - last.length) + last : first.slice(0, plotColumns);
  lines.push([{ text: `${' '.repeat(labelWidth)}└${rule}`, kind: 'axis' }]);
  return lines;
}

/** Short labels: four significant digits at most, `k`/`M` for large values. */
export function formatValue(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (magnitude >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  if (magnitude === 0) return '0';
  if (magnitude < 0.001) return value.toExponential(1);
  return value.toFixed(3);
}

function drawPolyline(points: [number, number][], plot: (x: number, y: number) => void): void {
  const [first] = points;
  if (first) plot(first[0], first[1]);
  for (let index = 1; index < points.length; index++) {
    const [x0, y0] = points[index - 1]!;
    const [x1, y1] = points[index]!;
    // Bresenham: every dot between two neighbours, so steep segments stay connected.
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let error = dx + dy;
    let x = x0;
    let y = y0;
    for (;;) {
      plot(x, y);
      if (x === x1 && y === y1) break;
      const doubled = 2 * error;
      if (doubled >= dy) {
        error += dy;
        x += sx;
      }
      if (doubled <= dx) {
        error += dx;
        y += sy;
      }
    }
  }
}

class LineBuilder {
  readonly segments: ChartSegment[] = [];

  add(text: string, kind: ChartSegmentKind): void {
    const last = this.segments.at(-1);
    if (last && last.kind === kind) last.text += text;
    else this.segments.push({ text, kind });
  }
}
