import { InvalidArgumentError } from '@saccade/spec';
import { checkKnownOptions, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { CHART_KINDS, CHART_HEIGHT, CHART_WIDTH, drawChartData, type ChartKind } from './chart-data';
import { CHART_QUESTIONS, drawChartQuestion, questionKindsFor, type ChartQuestionKind } from './chart-questions';
import { chartSvg } from './chart-svg';

/** Options of the charts source: which chart and question kinds to draw from. */
export interface ChartsOptions extends ProceduralSourceOptions {
  /** Chart kinds to draw from (default all: bar, grouped-bar, line, pie). */
  kinds?: ChartKind[];
  /** Question kinds to ask (default: those the difficulty unlocks). */
  questions?: ChartQuestionKind[];
}

interface ChartsSettings {
  kinds: readonly ChartKind[];
  questions: readonly ChartQuestionKind[] | undefined;
}

function checkList<T extends string>(value: unknown, allowed: readonly T[], argument: string): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => allowed.includes(item as T))) {
    throw new InvalidArgumentError({ argument, expected: `a non-empty array of ${allowed.join(' | ')}`, value });
  }
  return value as T[];
}

/** Charts tasks: a bar, grouped-bar, line or pie chart and a question ChartQA's relaxed accuracy checks. */
export const chartsGenerator: GeneratorDefinition<ChartsSettings> = {
  name: 'charts',
  dataset: 'Procedural-Charts',
  taskFamily: 'chart',
  checker: 'ChartQA',
  options: ['kinds', 'questions'],
  settings(options) {
    checkKnownOptions(options, this.options, 'charts');
    return { kinds: checkList(options.kinds, CHART_KINDS, 'kinds') ?? CHART_KINDS, questions: checkList(options.questions, CHART_QUESTIONS, 'questions') };
  },
  generate(rng, settings, difficulty) {
    const chart = drawChartData(rng.fork('data'), rng.pick(settings.kinds), difficulty);
    const unlocked = questionKindsFor(chart, difficulty);
    const wanted = settings.questions ?? unlocked;
    // Asked-for kinds the chart cannot carry (a trend on a bar chart) fall back to reading a value.
    const usable = wanted.filter((kind) => (kind !== 'trend' || chart.kind === 'line') && (kind !== 'count-above' || chart.kind !== 'pie'));
    const question = drawChartQuestion(rng.fork('question'), chart, usable.length > 0 ? usable : ['value']);
    const numeric = question.kind !== 'trend' && question.asks === 'value';
    return {
      svg: chartSvg(chart),
      width: CHART_WIDTH,
      height: CHART_HEIGHT,
      question: question.kind === 'trend' ? `${question.text} Answer increase or decrease.` : question.text,
      answer: question.answer,
      answerType: numeric ? 'number' : 'text',
      metadata: { chart, question: { kind: question.kind, series: question.series, categories: question.categories, threshold: question.threshold, asks: question.asks } },
    };
  },
};

/** Bar, grouped-bar, line and pie charts with exact answers (ChartQA's relaxed accuracy). */
export function createChartsSource(options: ChartsOptions = {}): ProceduralSource<ChartsSettings> {
  return new ProceduralSource(chartsGenerator, options as ChartsOptions & Record<string, unknown>);
}
