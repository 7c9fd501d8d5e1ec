// Test helpers: a genuine tiny ONNX model folder, written offline, for tests and examples that
// need a model to load and run without weights.
export { TINY_QWEN2_VL_VOCAB, TINY_VOCAB, writeTinyQwen2Vl, writeTinySmolVlm } from './__fixtures__/tiny-vlm';
export { ELEMENT_TYPE, writeOnnxModel } from './__fixtures__/onnx-writer';
export type { AttributeValue, ElementType, GraphSpec, NodeSpec, TensorSpec, ValueSpec } from './__fixtures__/onnx-writer';
