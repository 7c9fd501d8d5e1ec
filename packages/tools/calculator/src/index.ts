export { calculatorTool, createCalculatorTool } from './calculator-tool';
export type { CalculatorToolSettings } from './calculator-tool';
