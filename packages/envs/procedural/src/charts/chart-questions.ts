import type { Rng } from '@saccade/core';
import type { ChartData } from './chart-data';

/** The question kinds asked about a chart. */
export const CHART_QUESTIONS = ['value', 'max', 'min', 'difference', 'ratio', 'trend', 'count-above'] as const;
/** One of {@link CHART_QUESTIONS}. */
export type ChartQuestionKind = (typeof CHART_QUESTIONS)[number];

/** The question in structured form: enough to recompute its answer from measured values. */
export interface ChartQuestion {
  kind: ChartQuestionKind;
  /** Series index (grouped bars), categories named, threshold, and whether a label or a value is asked. */
  series: number;
  categories: number[];
  threshold?: number;
  asks: 'label' | 'value';
  text: string;
  answer: string;
}

/** Question kinds unlock with difficulty: reading values first, then comparing, then ratios. */
export function questionKindsFor(chart: ChartData, difficulty: number): ChartQuestionKind[] {
  const kinds: ChartQuestionKind[] = ['value', 'max', 'min'];
  if (difficulty >= 0.3) kinds.push('difference', chart.kind === 'line' ? 'trend' : 'count-above');
  if (difficulty >= 0.6) kinds.push('ratio');
  return kinds;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The answer a question has for given values (also used by the tests on values measured from pixels). */
export function answerChartQuestion(question: Omit<ChartQuestion, 'text' | 'answer'>, chart: Pick<ChartData, 'categories'>, values: readonly number[]): string {
  const [a, b] = question.categories.map((index) => values[index]!);
  switch (question.kind) {
    case 'value':
      return String(a);
    case 'max':
    case 'min': {
      const best = question.kind === 'max' ? Math.max(...values) : Math.min(...values);
      return question.asks === 'label' ? chart.categories[values.indexOf(best)]! : String(best);
    }
    case 'difference':
      return String(round2(Math.abs(a! - b!)));
    case 'ratio':
      return String(round2(a! / b!));
    case 'trend':
      return values.at(-1)! > values[0]! ? 'increase' : 'decrease';
    case 'count-above':
      return String(values.filter((value) => value > question.threshold!).length);
  }
}

export function drawChartQuestion(rng: Rng, chart: ChartData, kinds: readonly ChartQuestionKind[]): ChartQuestion {
  const kind = rng.pick(kinds.filter((candidate) => candidate !== 'trend' || chart.kind === 'line').filter((candidate) => candidate !== 'count-above' || chart.kind !== 'pie'));
  const series = rng.int(0, chart.series.length - 1);
  const values = chart.series[series]!.values;
  const [first, second] = rng.shuffle(chart.categories.map((_, index) => index));
  const name = (index: number) => chart.categories[index]!;
  const of = chart.kind === 'grouped-bar' ? ` for ${chart.series[series]!.name}` : '';
  const pie = chart.kind === 'pie';
  const what = pie ? 'share' : 'value';
  let question: Omit<ChartQuestion, 'text' | 'answer'> = { kind, series, categories: [first!], asks: 'value' };
  let text: string;
  switch (kind) {
    case 'value':
      text = pie ? `What percentage of the total is ${name(first!)}?` : `What is the value of ${name(first!)}${of}?`;
      break;
    case 'max':
    case 'min': {
      const asks = rng.next() < 0.5 ? 'label' : 'value';
      question = { ...question, categories: [], asks };
      const extreme = kind === 'max' ? 'highest' : 'lowest';
      const category = pie ? 'slice' : chart.kind === 'line' ? 'year' : 'category';
      text = asks === 'label' ? `Which ${category} has the ${extreme} ${what}${of}?` : `What is the ${extreme} ${what}${of} in the chart?`;
      break;
    }
    case 'difference':
      question = { ...question, categories: [first!, second!] };
      text = `What is the difference between the ${what}s of ${name(first!)} and ${name(second!)}${of}?`;
      break;
    case 'ratio':
      question = { ...question, categories: [first!, second!] };
      text = `What is the ratio of the ${what} of ${name(first!)} to the ${what} of ${name(second!)}${of}? Round to two decimals.`;
      break;
    case 'trend':
      question = { ...question, categories: [0, values.length - 1] };
      text = `From ${name(0)} to ${name(values.length - 1)}, did the value increase or decrease overall?`;
      break;
    case 'count-above': {
      // A gridline value that no bar equals, so "above" is never a matter of a pixel.
      const ticks = [10, 20, 30, 40].map((tick) => tick * chart.unit).filter((tick) => !values.includes(tick));
      const threshold = rng.pick(ticks);
      question = { ...question, categories: [], threshold };
      text = `How many ${chart.kind === 'grouped-bar' ? 'categories' : 'bars'} have a ${what}${of} above ${threshold}?`;
      break;
    }
  }
  return { ...question, text, answer: answerChartQuestion(question, chart, values) };
}
