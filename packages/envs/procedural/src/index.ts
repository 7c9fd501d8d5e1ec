// Registration.
export {
  CHARTS_ID,
  COUNTING_ID,
  GEOMETRY_ID,
  GUI_GROUNDING_ID,
  PROCEDURAL_VQA_ENVS,
  SVG_RECONSTRUCTION_ID,
  VISUAL_SEARCH_ID,
  createProceduralVqaEnv,
  proceduralTaskSourceId,
  registerProceduralAnswerCheckers,
  registerProceduralEnvs,
  registerProceduralTaskSources,
} from './register-procedural-envs';

// The common machinery: sources, splits, difficulty.
export { checkKnownOptions, multipleChoice, ProceduralSource, type GeneratedSample, type GeneratorDefinition, type ProceduralSample, type ProceduralSourceOptions } from './common/procedural-source';
export { checkSplit, seedForIndex, SPLIT_SEED_RANGES, SPLITS, splitOfSeed, type Split } from './common/split';
export { checkDifficulty, DEFAULT_DIFFICULTY } from './common/difficulty';
export { COLOUR_NAMES, COLOURS, hexToRgb, type ColourName } from './common/palette';
export { FONT_FAMILY } from './common/svg';

// Generators.
export { chartsGenerator, createChartsSource, type ChartsOptions } from './charts/charts-generator';
export { CHART_KINDS, type ChartData, type ChartKind, type ChartSeries, type PlotGeometry } from './charts/chart-data';
export { answerChartQuestion, CHART_QUESTIONS, type ChartQuestion, type ChartQuestionKind } from './charts/chart-questions';
export { linePoints, pieColour } from './charts/chart-svg';
export { createGeometrySource, geometryGenerator, type GeometryOptions } from './geometry/geometry-generator';
export { GEOMETRY_PROBLEMS, type GeometryProblemKind, type GeometryQuery } from './geometry/geometry-problems';
export { countingGenerator, createCountingSource, type CountingOptions } from './counting/counting-generator';
export { answerCountingQuery, COUNTING_QUESTIONS, RELATIONS, type CountingQuery, type CountingQuestionKind, type ObjectFilter, type Relation } from './counting/counting-questions';
export { RADIUS, SCENE_COLOURS, SHAPES, SIZES, type SceneObject, type Shape, type Size } from './counting/counting-scene';
export {
  createVisualSearchSource,
  DISTRACTOR_SHAPES,
  RELATION_MIN_SEPARATION,
  TARGET_RADIUS_RANGE,
  TARGET_SHAPES,
  VISUAL_SEARCH_LEVEL_NAMES,
  VISUAL_SEARCH_LEVELS,
  VISUAL_SEARCH_LOOKALIKES,
  VISUAL_SEARCH_QUESTIONS,
  VISUAL_SEARCH_RELATION_AXES,
  visualSearchGenerator,
  type Box,
  type TargetShape,
  type VisualSearchLevel,
  type VisualSearchLookalikes,
  type VisualSearchOptions,
  type VisualSearchQuestion,
  type VisualSearchRelationAxis,
} from './visual-search/visual-search-generator';
export { createGuiGroundingSource, guiGroundingGenerator, type GuiGroundingOptions } from './gui-grounding/gui-grounding-generator';
export { guiScreenSvg, ICONS, instructionFor, type ElementRole, type GuiElement, type GuiScreen, type IconName } from './gui-grounding/gui-screen';
export { createSvgReconstructionSource, SVG_SHAPES, SVG_SIZE, svgReconstructionGenerator, targetSvgCode, type SvgShape, type SvgShapeKind } from './svg-reconstruction/svg-reconstruction-generator';
export { SVG_SIMILARITIES, SvgReconstructionEnv, type SvgReconstructionEnvOptions, type SvgSimilarity } from './svg-reconstruction/svg-reconstruction-env';
export { perceptualSimilarity, reconstructionScore, shapeMatch, structuralSimilarity, type ReconstructionScore, type RgbImage } from './svg-reconstruction/svg-score';
export { parseColour, readSvgShapes, type DrawnShape, type SvgShapeFamily } from './svg-reconstruction/svg-shapes';
export { ssim, toGray, type GrayImage, type SsimOptions } from './svg-reconstruction/ssim';
