import { renderSvg } from '@saccade/image';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../write-file-atomic';
import { lineChartSvg, type LineChartOptions } from './line-chart-svg';

/** A row of metrics.jsonl. */
export interface MetricsRow {
  kind: 'train' | 'eval';
  step: number;
  [metric: string]: unknown;
}

/**
 * Writes `plots/loss.{svg,png}` and `plots/success.{svg,png}` from the run's metrics: the charts a
 * person opens to see whether a run learns. Files are replaced by rename, never half written.
 */
export async function writeRunPlots(runPath: string, rows: readonly MetricsRow[]): Promise<string[]> {
  const folder = join(runPath, 'plots');
  mkdirSync(folder, { recursive: true });
  const series = (kind: MetricsRow['kind'], metric: string): [number, number][] =>
    rows.flatMap((row) => (row.kind === kind && typeof row[metric] === 'number' ? [[row.step, row[metric]] as [number, number]] : []));
  const charts: Record<string, LineChartOptions> = {
    loss: { title: 'Training loss', xLabel: 'step', yLabel: 'loss', series: [{ name: 'loss', points: series('train', 'loss') }] },
    success: {
      title: 'Held-out evaluation',
      xLabel: 'step',
      yLabel: 'rate',
      yRange: [0, 1],
      series: [
        { name: 'success', points: series('eval', 'success') },
        { name: 'format', points: series('eval', 'formatRate') },
      ],
    },
  };
  const written: string[] = [];
  for (const [name, options] of Object.entries(charts)) {
    const svg = lineChartSvg(options);
    const png = await renderSvg(svg);
    for (const [path, content] of [[join(folder, `${name}.svg`), svg], [join(folder, `${name}.png`), png.data]] as const) {
      writeFileAtomic(path, content);
      written.push(path);
    }
  }
  return written;
}
