import { registerTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';

/**
 * Registers the tools that ship with Saccade (zoom, point crop, rotate, calculator, geometry,
 * detect, ocr), so that `getTool(name)` and a `ToolUseWrapper` given names find them. The packages
 * are imported here, not at start-up: OCR loads onnxruntime and the calculator a math library, which
 * commands that use no tool should not wait for.
 */
export async function registerBuiltinTools(): Promise<{ tools: Tool[]; close: () => Promise<void> }> {
  const [zoom, calculator, geometry, detect, ocr] = await Promise.all([
    import('@saccade/tool-zoom'),
    import('@saccade/tool-calculator'),
    import('@saccade/tool-geometry'),
    import('@saccade/tool-detect'),
    import('@saccade/tool-ocr'),
  ]);
  const tools = [
    zoom.zoomTool,
    zoom.pointCropTool,
    zoom.rotateTool,
    calculator.calculatorTool,
    geometry.geometryTool,
    detect.detectTool,
    ocr.ocrTool,
  ] as Tool[];
  for (const tool of tools) registerTool(tool, { override: true });
  // OCR keeps its ONNX sessions open between calls; closing them lets the process exit.
  return { tools, close: () => ocr.closeOcrEngines() };
}
