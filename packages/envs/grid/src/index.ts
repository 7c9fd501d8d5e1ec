// Envs and registration.
export { FrozenLakeEnv, type FrozenLakeEnvOptions } from './frozen-lake/frozen-lake-env';
export { SokobanEnv, type SokobanEnvOptions } from './sokoban/sokoban-env';
export { GridEnv, type GridEnvOptions, type GridMove } from './grid-env';
export { FROZEN_LAKE_ID, SOKOBAN_ID, registerGridEnvs } from './register-grid-envs';

// Grid basics.
export { DIRECTIONS, DIRECTION_DELTAS, parseDirection, samePosition, type Direction, type Position } from './common/position';
export { randomInt, type RandomSource } from './common/random-source';

// FrozenLake rules, maps and solver.
export {
  frozenLakeMapFromRows,
  frozenLakeTile,
  generateFrozenLakeMap,
  type FrozenLakeMap,
  type GenerateFrozenLakeMapOptions,
} from './frozen-lake/frozen-lake-map';
export { frozenLakeStatus, frozenLakeText, moveFrozenLake, type FrozenLakeState, type FrozenLakeStatus } from './frozen-lake/frozen-lake-rules';
export { solveFrozenLake } from './frozen-lake/solve-frozen-lake';

// Sokoban rules, levels and solver.
export {
  boxesOnTargets,
  isSokobanSolved,
  moveSokoban,
  neighbourCell,
  sokobanStateFromText,
  sokobanText,
  type SokobanMove,
  type SokobanRoom,
  type SokobanState,
} from './sokoban/sokoban-rules';
export { generateSokobanLevel, type GenerateSokobanLevelOptions, type SokobanLevel } from './sokoban/generate-sokoban-level';
export { solveSokoban, type SolveSokobanOptions } from './sokoban/solve-sokoban';

// Oracle.
export { gridSymbolicState, oracleResponse, simulateMoves, solveGridState, type GridState, type OracleResponseOptions } from './oracle-response';

// Symbolic state and the visual reasoning reward.
export {
  frozenLakeSymbolicState,
  sokobanSymbolicState,
  type FrozenLakeSymbolicState,
  type GridSymbolicState,
  type SokobanSymbolicState,
} from './reasoning/symbolic-state';
export {
  OBJECT_TYPES,
  invertDirection,
  relationHolds,
  relationKey,
  relativeDirection,
  stateObjects,
  stateRelations,
  type ObjectRelation,
  type RelativeDirection,
} from './reasoning/object-relations';
export { extractRelations } from './reasoning/extract-relations';
export { relationF1, type RelationScore } from './reasoning/relation-f1';
export { describeState } from './reasoning/describe-state';
export type { VisualReasoningJudge, VisualReasoningKind } from './reasoning/visual-reasoning-judge';
export {
  createLlmVisualReasoningJudge,
  judgePrompt,
  type JudgeCompletion,
  type LlmJudgeStatistics,
  type LlmVisualReasoningJudge,
  type LlmVisualReasoningJudgeOptions,
} from './reasoning/llm-visual-reasoning-judge';
export { judgeRelationsOf, maximumMatchingWeight, parseJudgeRelations, scoreJudgeRelations, type JudgeRelation } from './reasoning/judge-relations';
export { frozenLakeJudgePrompt, sokobanJudgePrompt } from './reasoning/judge-prompts';

// Prompts and rendering.
export { formatInstructions, formatReminder, formatResponse, type FormatExample } from './prompts/format-instructions';
export { frozenLakeSystemPrompt } from './prompts/frozen-lake-prompt';
export type { ObservationMode } from './common/observation-mode';
export { sokobanSystemPrompt } from './prompts/sokoban-prompt';
export { FROZEN_LAKE_COLOURS, frozenLakePicture, frozenLakeSvg } from './render/frozen-lake-svg';
export { SOKOBAN_COLOURS, sokobanPicture, sokobanSvg } from './render/sokoban-svg';
export { pictureSvg, renderPicture, type GridPicture } from './render/grid-picture';
export type { GridSvgOptions } from './render/grid-svg';
export { PngCache, gridFrameCache } from './render/png-cache';
