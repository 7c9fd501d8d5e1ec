import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { MetricsRowOut } from './api';

interface Series {
  title: string;
  x: number[];
  y: number[];
}

/** Every numeric metric of metrics.jsonl by kind (train, eval, rollout), against steps or minutes. */
export function Curves({ rows }: { rows: MetricsRowOut[] }) {
  const [axis, setAxis] = useState<'step' | 'minutes'>('step');
  const series = useMemo(() => curveSeries(rows, axis), [rows, axis]);
  if (rows.length === 0) return <p className="muted page">No metrics yet: metrics.jsonl is empty or missing (an eval writes episodes only).</p>;
  return (
    <section className="curves page" data-testid="curves">
      <label>
        x axis{' '}
        <select value={axis} onChange={(event) => setAxis(event.target.value as 'step' | 'minutes')}>
          <option value="step">steps</option>
          <option value="minutes">minutes</option>
        </select>
      </label>
      <div className="charts">
        {series.map((one) => (
          <Chart key={one.title} series={one} axis={axis} />
        ))}
      </div>
    </section>
  );
}

/** One series per (kind, metric), x ascending. */
export function curveSeries(rows: readonly MetricsRowOut[], axis: 'step' | 'minutes'): Series[] {
  const start = rows.map((row) => Date.parse(String(row.time ?? ''))).find((time) => Number.isFinite(time));
  const byTitle = new Map<string, Series>();
  for (const row of rows) {
    const x = axis === 'step' ? Number(row.step) : (Date.parse(String(row.time ?? '')) - (start ?? 0)) / 60_000;
    if (!Number.isFinite(x)) continue;
    for (const [key, value] of Object.entries(row)) {
      if (key === 'step' || key === 'time' || key === 'kind' || typeof value !== 'number' || !Number.isFinite(value)) continue;
      const title = `${row.kind ?? 'metric'} · ${key}`;
      let one = byTitle.get(title);
      if (one === undefined) byTitle.set(title, (one = { title, x: [], y: [] }));
      one.x.push(x);
      one.y.push(value);
    }
  }
  const order = (title: string) => (/loss/.test(title) ? 0 : /success/.test(title) ? 1 : /tool/.test(title) ? 2 : 3);
  return [...byTitle.values()].sort((a, b) => order(a.title) - order(b.title) || a.title.localeCompare(b.title));
}

function Chart({ series, axis }: { series: Series; axis: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current === null) return;
    const plot = new uPlot(
      {
        title: series.title,
        width: 400,
        height: 200,
        scales: { x: { time: false } },
        axes: [{ label: axis }, {}],
        series: [{}, { label: series.title.split(' · ')[1] ?? series.title, stroke: '#2e86ab', width: 2, points: { show: series.x.length < 50 } }],
      },
      [series.x, series.y],
      box.current,
    );
    return () => plot.destroy();
  }, [series, axis]);
  return <div className="chart" ref={box} data-testid="chart" />;
}
