import { InvalidArgumentError } from '@saccade/spec';
import { checkKnownOptions, ProceduralSource, type GeneratorDefinition, type ProceduralSourceOptions } from '../common/procedural-source';
import { svgDocument } from '../common/svg';
import { COUNTING_QUESTIONS, countingKindsFor, countingQuestionText, drawCountingQuery, type CountingQuestionKind } from './counting-questions';
import { drawScene, objectSvg, SCENE_HEIGHT, SCENE_WIDTH } from './counting-scene';

/** Options of the counting source: which question kinds to ask. */
export interface CountingOptions extends ProceduralSourceOptions {
  /** Question kinds to ask (default: those the difficulty unlocks: counts, then extremes, then relations). */
  questions?: CountingQuestionKind[];
}

interface CountingSettings {
  questions: readonly CountingQuestionKind[] | undefined;
}

/** Counting tasks: a scene of shapes and a count, relation or extreme question about them. */
export const countingGenerator: GeneratorDefinition<CountingSettings> = {
  name: 'counting',
  dataset: 'Procedural-Counting',
  taskFamily: 'spatial',
  checker: 'CLEVR',
  options: ['questions'],
  settings(options) {
    checkKnownOptions(options, this.options, 'counting');
    const { questions } = options as CountingOptions;
    if (questions !== undefined && (!Array.isArray(questions) || questions.length === 0 || !questions.every((kind) => COUNTING_QUESTIONS.includes(kind)))) {
      throw new InvalidArgumentError({ argument: 'questions', expected: `a non-empty array of ${COUNTING_QUESTIONS.join(' | ')}`, value: questions });
    }
    return { questions };
  },
  generate(rng, settings, difficulty) {
    const objects = drawScene(rng.fork('scene'), difficulty);
    const { query, answer } = drawCountingQuery(rng.fork('question'), objects, settings.questions ?? countingKindsFor(difficulty), difficulty);
    const yesNo = answer === 'yes' || answer === 'no';
    const numeric = /^\d+$/.test(answer);
    return {
      svg: svgDocument(SCENE_WIDTH, SCENE_HEIGHT, objects.map(objectSvg).join(''), '#f4f4f4'),
      width: SCENE_WIDTH,
      height: SCENE_HEIGHT,
      question: countingQuestionText(query),
      answer,
      answerType: yesNo ? 'yes-no' : numeric ? 'number' : 'text',
      metadata: { objects, query },
    };
  },
};

/** CLEVR-like 2D scenes: shapes with colours, sizes and positions; counts and spatial relations. */
export function createCountingSource(options: CountingOptions = {}): ProceduralSource<CountingSettings> {
  return new ProceduralSource(countingGenerator, options as CountingOptions & Record<string, unknown>);
}
