import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderSvg } from '@saccade/image';
import { barChartSvg } from '../plots/bar-chart-svg';
import { RUN_FILES, writeFileAtomic } from '@saccade/runs';
import type { EvalConfig } from './eval-config';
import type { EvalSummary } from '@saccade/runs';

/** Writes `plots/accuracy.{svg,png}`: success by task family (and overall) with 95 % intervals. */
export async function writeEvalPlots(runPath: string, summary: EvalSummary, config: EvalConfig): Promise<string[]> {
  const folder = join(runPath, RUN_FILES.plots);
  mkdirSync(folder, { recursive: true });
  const families = Object.entries(summary.families);
  const bars = families.map(([label, rate]) => ({ label, value: rate.success, interval: rate.interval, note: `n = ${rate.episodes}` }));
  if (families.length > 1) bars.push({ label: 'all', value: summary.success, interval: summary.interval, note: `n = ${summary.episodes}` });
  const svg = barChartSvg({ title: `Success by task family: ${config.agent.kind} on ${config.env.id}`, yLabel: 'success (95% CI)', bars });
  const png = await renderSvg(svg);
  const written: string[] = [];
  for (const [path, content] of [[join(folder, 'accuracy.svg'), svg], [join(folder, 'accuracy.png'), png.data]] as const) {
    writeFileAtomic(path, content);
    written.push(path);
  }
  return written;
}
