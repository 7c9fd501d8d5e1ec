import { checkChartQA } from '@saccade/core';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { COLOURS } from '../common/palette';
import { indices, pixelsOf, type Pixels } from '../../test/pixels';
import type { ChartData } from './chart-data';
import { createChartsSource } from './charts-generator';
import { pieColour } from './chart-svg';

interface StoredQuestion {
  kind: string;
  series: number;
  categories: number[];
  threshold?: number;
  asks: 'label' | 'value';
}

/** Bar values measured from the PNG: runs of bar colours just above the axis, then each bar's top. */
function measureBars(pixels: Pixels, chart: ChartData): number[][] {
  const { left, right, zeroY, pixelsPerUnit } = chart.plot;
  const colours = chart.series.map((series) => COLOURS[series.colour]);
  const runs: { series: number; x: number }[] = [];
  let x = left;
  while (x < right) {
    const series = colours.findIndex((hex) => pixels.is(x, zeroY - 1, hex));
    if (series === -1) {
      x++;
      continue;
    }
    const start = x;
    while (pixels.is(x, zeroY - 1, colours[series]!)) x++;
    runs.push({ series, x: Math.floor((start + x - 1) / 2) });
  }
  const values = chart.series.map(() => [] as number[]);
  for (const run of runs) {
    let top = zeroY - 1;
    while (pixels.is(run.x, top - 1, colours[run.series]!)) top--;
    values[run.series]!.push(Math.round((zeroY - top) / pixelsPerUnit) * chart.unit);
  }
  return values;
}

/** Line values: the marker's run of the series colour in each category's centre column. */
function measureLine(pixels: Pixels, chart: ChartData): number[][] {
  const { left, right, zeroY, pixelsPerUnit, top } = chart.plot;
  const slot = Math.floor((right - left) / chart.categories.length);
  const hex = COLOURS[chart.series[0]!.colour];
  return [
    chart.categories.map((_, index) => {
      const column = left + slot * index + Math.floor(slot / 2);
      let best = { start: 0, length: 0 };
      for (let y = top - 20; y <= zeroY; y++) {
        if (!pixels.is(column, y, hex)) continue;
        let end = y;
        while (pixels.is(column, end + 1, hex)) end++;
        if (end - y + 1 > best.length) best = { start: y, length: end - y + 1 };
        y = end;
      }
      const middle = best.start + (best.length - 1) / 2;
      return Math.round((zeroY - middle) / pixelsPerUnit) * chart.unit;
    }),
  ];
}

/** Pie shares: the fraction of 7,200 points on a circle inside the pie that has each slice's colour. */
function measurePie(pixels: Pixels, chart: ChartData): number[][] {
  const { cx, cy, radius } = chart.pie!;
  const counts = chart.categories.map(() => 0);
  for (let step = 0; step < 7200; step++) {
    const angle = (step / 7200) * 2 * Math.PI;
    const x = Math.floor(cx + radius * 0.6 * Math.cos(angle));
    const y = Math.floor(cy + radius * 0.6 * Math.sin(angle));
    const slice = chart.categories.findIndex((_, index) => pixels.is(x, y, COLOURS[pieColour(chart, index)]));
    if (slice !== -1) counts[slice]!++;
  }
  const total = counts.reduce((sum, count) => sum + count, 0);
  return [counts.map((count) => Math.round((100 * count) / total))];
}

/** The answer recomputed from measured values (written apart from the generator's own code). */
function recompute(question: StoredQuestion, chart: ChartData, values: number[]): string {
  const pick = (index: number) => values[question.categories[index]!]!;
  const r2 = (value: number) => String(Math.round(value * 100) / 100);
  if (question.kind === 'value') return String(pick(0));
  if (question.kind === 'max' || question.kind === 'min') {
    const sorted = [...values].sort((a, b) => (question.kind === 'max' ? b - a : a - b));
    return question.asks === 'label' ? chart.categories[values.indexOf(sorted[0]!)]! : String(sorted[0]);
  }
  if (question.kind === 'difference') return r2(Math.abs(pick(0) - pick(1)));
  if (question.kind === 'ratio') return r2(pick(0) / pick(1));
  if (question.kind === 'trend') return values[values.length - 1]! > values[0]! ? 'increase' : 'decrease';
  return String(values.filter((value) => value > question.threshold!).length);
}

describe('charts generator', () => {
  it.each(['bar', 'grouped-bar', 'line', 'pie'] as const)('%s: the stored data and answer match what the PNG shows (20 seeds)', async (kind) => {
    const source = createChartsSource({ kinds: [kind], difficulty: 0.9 });
    for (const index of indices(20)) {
      const task = await source.get(index);
      const chart = task.metadata!.chart as ChartData;
      const question = task.metadata!.question as StoredQuestion;
      const pixels = await pixelsOf(task.images[0] as ImageData);
      const measured = kind === 'pie' ? measurePie(pixels, chart) : kind === 'line' ? measureLine(pixels, chart) : measureBars(pixels, chart);
      expect(measured, `${task.id}: values read from the image`).toEqual(chart.series.map((series) => series.values));
      const answer = recompute(question, chart, measured[question.series]!);
      expect(String(task.answer), `${task.id}: ${task.question}`).toBe(answer);
      expect(checkChartQA(answer, task).correct).toBe(true);
    }
  });

  it('asks every question kind across seeds, and answers numeric ones as numbers', async () => {
    const source = createChartsSource({ difficulty: 1 });
    const kinds = new Set<string>();
    for (const index of indices(300)) {
      const task = source.generate(index);
      const question = task.metadata.question as StoredQuestion;
      kinds.add(question.kind);
      if (task.answerType === 'number') expect(Number.isFinite(Number(task.answer))).toBe(true);
    }
    expect([...kinds].sort()).toEqual(['count-above', 'difference', 'max', 'min', 'ratio', 'trend', 'value']);
  });

  it('difficulty adds bars, hides value labels and unlocks harder questions', () => {
    const stats = (difficulty: number) => {
      const source = createChartsSource({ kinds: ['bar'], difficulty });
      const samples = indices(20).map((index) => source.generate(index));
      return {
        bars: Math.min(...samples.map((sample) => (sample.metadata.chart as ChartData).categories.length)),
        labelled: samples.every((sample) => (sample.metadata.chart as ChartData).showValues),
        kinds: new Set(samples.map((sample) => (sample.metadata.question as StoredQuestion).kind)),
      };
    };
    const easy = stats(0);
    const hard = stats(1);
    expect(easy).toMatchObject({ bars: 3, labelled: true });
    expect(hard).toMatchObject({ bars: 8, labelled: false });
    expect([...easy.kinds].every((kind) => ['value', 'max', 'min'].includes(kind))).toBe(true);
    expect(hard.kinds.has('ratio') || hard.kinds.has('difference')).toBe(true);
  });

  it('refuses unknown chart kinds with the allowed list', () => {
    expect(() => createChartsSource({ kinds: ['radar' as never] })).toThrow(/kinds: expected a non-empty array of bar \| grouped-bar \| line \| pie/);
    expect(() => createChartsSource({ colour: 'red' } as never)).toThrow(/an option of the charts generator: split, difficulty, kinds, questions/);
  });
});
