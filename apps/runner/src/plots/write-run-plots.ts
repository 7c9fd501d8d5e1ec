import { renderSvg } from '@saccade/image';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES, writeFileAtomic, type MetricsRow } from '@saccade/runs';
import { lineChartSvg, type LineChartOptions } from './line-chart-svg';


/**
 * Writes `plots/loss.{svg,png}` and `plots/success.{svg,png}` (and `looking` when the policy had
 * tools; `reward`, `policy`, `sampler` and `rollouts-health` after RL) from the run's metrics: the charts a person opens to see
 * whether a run learns. Files are replaced by rename, never half written.
 */
export async function writeRunPlots(runPath: string, rows: readonly MetricsRow[]): Promise<string[]> {
  const folder = join(runPath, RUN_FILES.plots);
  mkdirSync(folder, { recursive: true });
  const series = (kind: MetricsRow['kind'], metric: string): [number, number][] =>
    rows.flatMap((row) => (row.kind === kind && typeof row[metric] === 'number' ? [[row.step, row[metric]] as [number, number]] : []));
  // Wall-clock minutes since the first row: what "learns in minutes" is read against.
  const firstTime = rows.map((row) => Date.parse(String(row['time']))).find((time) => Number.isFinite(time));
  const overTime = (kind: MetricsRow['kind'], metric: string): [number, number][] =>
    firstTime === undefined
      ? []
      : rows.flatMap((row) => {
          const time = Date.parse(String(row['time']));
          const value = row[metric];
          return row.kind === kind && typeof value === 'number' && Number.isFinite(time) ? [[(time - firstTime) / 60_000, value] as [number, number]] : [];
        });
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
        // evalSampling's mean@n: what the sampling policy (the one RL trains) scores.
        ...(series('eval', 'sampledSuccess').length > 0 ? [{ name: 'sampled', points: series('eval', 'sampledSuccess') }] : []),
      ],
    },
    'success-minutes': {
      title: 'Held-out success over time',
      xLabel: 'minutes',
      yLabel: 'success',
      yRange: [0, 1],
      series: [{ name: 'success', points: overTime('eval', 'success') }],
    },
  };
  const rollouts = series('rollout', 'meanReward');
  if (rollouts.length > 0) {
    charts['reward'] = {
      title: 'Rollouts (training seeds, sampled)',
      xLabel: 'step',
      yLabel: 'value',
      series: [
        { name: 'mean reward', points: rollouts },
        { name: 'success', points: series('rollout', 'success') },
      ],
    };
  }
  const hits = series('eval', 'targetHitRate');
  if (hits.length > 0 || series('eval', 'toolCallsPerEpisode').length > 0) {
    charts['looking'] = {
      title: 'Looking (held-out evaluation)',
      xLabel: 'step',
      yLabel: 'value',
      series: [
        // Short names: the legend sits inside the plot's right edge.
        { name: 'calls/episode', points: series('eval', 'toolCallsPerEpisode') },
        { name: 'crop on target', points: hits },
        { name: 'success, hit', points: series('eval', 'successWithHit') },
        { name: 'success, no hit', points: series('eval', 'successWithoutHit') },
      ],
    };
  }
  const kl = series('train', 'kl');
  const entropy = series('train', 'entropy');
  if (kl.length + entropy.length > 0) {
    charts['policy'] = {
      title: 'Policy updates',
      xLabel: 'step',
      yLabel: 'value',
      series: [
        { name: 'KL to reference', points: kl },
        { name: 'entropy', points: entropy },
        { name: 'clip fraction', points: series('train', 'clipFraction') },
      ],
    };
  }
  // Whether the trainer scored what the sampler sampled, and how far each update moved the policy from it.
  const gap = series('train', 'logprobGap');
  if (gap.length > 0) {
    charts['sampler'] = {
      title: 'Sampler and trainer (per update)',
      xLabel: 'step',
      yLabel: 'nats / fraction',
      series: [
        { name: 'log-prob gap', points: gap },
        { name: 'approx. KL', points: series('train', 'approxKl') },
        { name: 'clip fraction', points: series('train', 'clipFraction') },
      ],
    };
  }
  const health = [
    { name: 'uniform groups', points: series('rollout', 'uniformGroups') },
    { name: 'cut prompts', points: series('rollout', 'truncatedPrompts') },
    { name: 'invalid actions', points: series('rollout', 'invalidActionRate') },
    { name: 'unfinished', points: series('rollout', 'unfinishedResponses') },
  ].filter((line) => line.points.length > 0);
  if (health.length > 0) {
    charts['rollouts-health'] = { title: 'Rollouts (fractions of groups, turns)', xLabel: 'step', yLabel: 'fraction', yRange: [0, 1], series: health };
  }
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
