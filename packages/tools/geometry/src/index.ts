export { GEOMETRY_FUNCTIONS, createGeometryTool, geometryTool, runGeometry } from './geometry-tool';
export type { GeometryFunction, GeometryInput, GeometryToolSettings } from './geometry-tool';
export type { GeometryResult, Point } from './geometry-functions';
export { exactForm, toFraction } from './exact-form';
