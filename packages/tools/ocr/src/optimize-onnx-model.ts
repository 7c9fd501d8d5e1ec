import { constantNodeBytes, floatAttribute, floatAttributeBytes, floatConstant, intsAttribute, nodeBytes, readGraph, scalarConstant, type OnnxGraph } from './onnx-graph';

/** What optimizeOnnxModel changed. */
export interface OnnxRewrites {
  /** `x·clip(x+3, 0, 6)/6` (four nodes) now `x·HardSigmoid(x)` (two). */
  hardSwishes: number;
  /** A scalar multiply and add after a Conv, now in its weights and bias. */
  scalesAfterConv: number;
  /** A scalar multiply and add before a 1×1 Conv without padding, now in its weights and bias. */
  scalesBeforeConv: number;
}

/**
 * Rewrites of an ONNX graph that keep what it computes (to float rounding) and take passes over the
 * activations away, for exported PP-LCNet models (PaddleOCR's detector and recogniser) that spell
 * out hard-swish and keep their learnable scalar affines as separate nodes, which onnxruntime does not
 * fuse. A model without these patterns comes back as it was.
 */
export function optimizeOnnxModel(model: Uint8Array): { model: Uint8Array; rewrites: OnnxRewrites } {
  const hardSwish = fuseHardSwish(model);
  const after = foldScaleAfterConv(hardSwish.model);
  const before = foldScaleBeforeConv(after.model);
  return { model: before.model, rewrites: { hardSwishes: hardSwish.count, scalesAfterConv: after.count, scalesBeforeConv: before.count } };
}

interface Pass {
  model: Uint8Array;
  count: number;
}

/** What a pass changes: nodes replaced (by index, with the encoded nodes in their place), nodes removed, constants it no longer uses. */
interface Edit {
  replaced: Map<number, Uint8Array[]>;
  removed: Set<number>;
  released: string[];
}

/** Reads the graph, lets `visit` edit it, and writes it back (or returns the model as it was). */
function rewritePass(model: Uint8Array, visit: (graph: OnnxGraph, edit: Edit) => void): Pass {
  const graph = readGraph(model);
  const edit: Edit = { replaced: new Map(), removed: new Set(), released: [] };
  visit(graph, edit);
  if (edit.replaced.size === 0) return { model, count: 0 };
  dropReleased(graph, edit.released, edit.removed);
  return { model: graph.write(edit.replaced, edit.removed), count: edit.replaced.size };
}

/** The node that makes `name` when it is a standard `opType` node and nothing but one input uses `name`. */
function soleProducer(graph: OnnxGraph, name: string | undefined, opType: string): number | undefined {
  const index = name === undefined ? undefined : graph.producer.get(name);
  const node = index === undefined ? undefined : graph.nodes[index]!;
  return node !== undefined && node.opType === opType && node.domain === '' && graph.uses.get(name!) === 1 ? index : undefined;
}

const constantOf = (graph: OnnxGraph, name: string | undefined) => (name === undefined ? undefined : scalarConstant(graph.nodes[graph.producer.get(name) ?? -1]));

/** Splits a binary node's inputs into (value, scalar constant), either order. */
function withScalar(graph: OnnxGraph, inputs: readonly string[]): [string, number] | undefined {
  if (inputs.length !== 2) return undefined;
  const [left, right] = inputs as [string, string];
  const rightValue = constantOf(graph, right);
  if (rightValue !== undefined) return [left, rightValue];
  const leftValue = constantOf(graph, left);
  return leftValue === undefined ? undefined : [right, leftValue];
}

/** Removes Constant nodes that the removed nodes used and nothing else uses. */
function dropReleased(graph: OnnxGraph, released: readonly string[], removed: Set<number>): void {
  if (graph.nodes.some((node) => node.hasSubgraph)) return;
  const left = new Map<string, number>();
  for (const name of released) left.set(name, (left.get(name) ?? graph.uses.get(name) ?? 0) - 1);
  for (const [name, count] of left) {
    const index = graph.producer.get(name);
    if (count === 0 && index !== undefined && graph.nodes[index]!.opType === 'Constant') removed.add(index);
  }
}

/**
 * HardSigmoid exists since opset 6, HardSwish only since 14: `Mul(x, HardSigmoid(x, 1/6, 1/2))` is
 * the same function in any opset. PP-OCRv4: 28 in the recogniser, 24 in the detector.
 */
function fuseHardSwish(model: Uint8Array): Pass {
  return rewritePass(model, (graph, { replaced, removed, released }) => {
    graph.nodes.forEach((div, index) => {
      if (div.opType !== 'Div' || div.domain !== '' || div.inputs.length !== 2 || constantOf(graph, div.inputs[1]) !== 6) return;
      const mul = soleProducer(graph, div.inputs[0], 'Mul');
      if (mul === undefined) return;
      const clip = graph.nodes[mul]!.inputs.map((input) => soleProducer(graph, input, 'Clip')).find((found) => found !== undefined);
      if (clip === undefined) return;
      const clipNode = graph.nodes[clip]!;
      const clipsToSix =
        clipNode.inputs.length === 1
          ? floatAttribute(clipNode, 'min') === 0 && floatAttribute(clipNode, 'max') === 6
          : clipNode.inputs.length === 3 && constantOf(graph, clipNode.inputs[1]) === 0 && constantOf(graph, clipNode.inputs[2]) === 6;
      const add = soleProducer(graph, clipNode.inputs[0], 'Add');
      const shifted = add === undefined ? undefined : withScalar(graph, graph.nodes[add]!.inputs);
      if (!clipsToSix || add === undefined || shifted === undefined || shifted[1] !== 3) return;
      const [x] = shifted;
      if (!graph.nodes[mul]!.inputs.includes(x)) return;
      const output = div.outputs[0]!;
      const gate = `${output}/hard_sigmoid`;
      replaced.set(index, [
        nodeBytes('HardSigmoid', [x], [gate], gate, [floatAttributeBytes('alpha', 1 / 6), floatAttributeBytes('beta', 0.5)]),
        nodeBytes('Mul', [x, gate], [output], `${output}/hard_swish`),
      ]);
      for (const gone of [add, clip, mul]) removed.add(gone);
      released.push(...graph.nodes[add]!.inputs.filter((input) => input !== x), div.inputs[1]!, ...clipNode.inputs.slice(1));
    });
  });
}

/** A Conv's weights and bias (zeros when it has none), when both are float Constant nodes. */
function convParameters(graph: OnnxGraph, index: number): { weights: { dims: number[]; data: Float32Array }; bias: Float32Array } | undefined {
  const conv = graph.nodes[index]!;
  if (conv.opType !== 'Conv' || conv.domain !== '' || conv.inputs.length < 2) return undefined;
  const weights = floatConstant(graph.nodes[graph.producer.get(conv.inputs[1]!) ?? -1]);
  if (weights === undefined || weights.dims.length < 3) return undefined;
  const outputs = weights.dims[0]!;
  if (conv.inputs.length < 3 || conv.inputs[2] === '') return { weights, bias: new Float32Array(outputs) };
  const bias = floatConstant(graph.nodes[graph.producer.get(conv.inputs[2]!) ?? -1]);
  return bias !== undefined && bias.data.length === outputs ? { weights, bias: bias.data } : undefined;
}

/** Writes a Conv with new weights and bias (as new Constant nodes in front of it), keeping its attributes. */
function rewrittenConv(graph: OnnxGraph, index: number, input: string, output: string, weights: { dims: number[]; data: Float32Array }, bias: Float32Array): Uint8Array[] {
  const conv = graph.nodes[index]!;
  const weightName = `${output}/folded_weights`;
  const biasName = `${output}/folded_bias`;
  return [
    constantNodeBytes(weightName, weights.dims, weights.data),
    constantNodeBytes(biasName, [bias.length], bias),
    nodeBytes('Conv', [input, weightName, biasName], [output], `${output}/conv`, conv.encodedAttributes),
  ];
}

/** `Conv(x, W, b)·s + a` (the `+ a` optional) is `Conv(x, W·s, b·s + a)`. */
function foldScaleAfterConv(model: Uint8Array): Pass {
  return rewritePass(model, (graph, { replaced, removed, released }) => {
    graph.nodes.forEach((mul, index) => {
      if (mul.opType !== 'Mul' || mul.domain !== '' || replaced.has(index)) return;
      const scaled = withScalar(graph, mul.inputs);
      const conv = scaled === undefined ? undefined : soleProducer(graph, scaled[0], 'Conv');
      const parameters = conv === undefined ? undefined : convParameters(graph, conv);
      if (scaled === undefined || conv === undefined || parameters === undefined || replaced.has(conv)) return;
      const scale = scaled[1];
      const addIndex = graph.uses.get(mul.outputs[0]!) === 1 ? graph.nodes.findIndex((node, at) => at > index && node.opType === 'Add' && node.domain === '' && node.inputs.includes(mul.outputs[0]!)) : -1;
      const shift = addIndex === -1 ? undefined : withScalar(graph, graph.nodes[addIndex]!.inputs);
      const offset = shift !== undefined && shift[0] === mul.outputs[0] ? shift[1] : 0;
      const last = shift !== undefined && shift[0] === mul.outputs[0] ? addIndex : index;
      const weights = { dims: parameters.weights.dims, data: parameters.weights.data.map((value) => value * scale) };
      const bias = parameters.bias.map((value) => value * scale + offset);
      const convNode = graph.nodes[conv]!;
      replaced.set(conv, rewrittenConv(graph, conv, convNode.inputs[0]!, graph.nodes[last]!.outputs[0]!, weights, bias));
      removed.add(index);
      if (last !== index) {
        removed.add(last);
        released.push(...graph.nodes[last]!.inputs.filter((input) => input !== mul.outputs[0]));
      }
      released.push(...convNode.inputs.slice(1).filter((input) => input !== ''), ...mul.inputs.filter((input) => input !== scaled[0]));
    });
  });
}

/**
 * `Conv(x·s + a, W, b)` for a 1×1 Conv without padding is `Conv(x, W·s, b + a·ΣW)`, the sum over each
 * output's input channels. (With padding the border would differ: padded zeros are not `a`.)
 */
function foldScaleBeforeConv(model: Uint8Array): Pass {
  return rewritePass(model, (graph, { replaced, removed, released }) => {
    graph.nodes.forEach((conv, index) => {
      const parameters = convParameters(graph, index);
      if (parameters === undefined || conv.inputs[0] === undefined) return;
      const { weights } = parameters;
      const pointwise = weights.dims.slice(2).every((dim) => dim === 1) && (intsAttribute(conv, 'pads') ?? []).every((pad) => pad === 0) && (conv.attributes.get('auto_pad') === undefined);
      if (!pointwise) return;
      const add = soleProducer(graph, conv.inputs[0], 'Add');
      const shifted = add === undefined ? undefined : withScalar(graph, graph.nodes[add]!.inputs);
      const mul = shifted === undefined ? undefined : soleProducer(graph, shifted[0], 'Mul');
      const scaled = mul === undefined ? undefined : withScalar(graph, graph.nodes[mul]!.inputs);
      if (add === undefined || shifted === undefined || mul === undefined || scaled === undefined) return;
      const [x, scale] = scaled;
      const offset = shifted[1];
      const perOutput = weights.data.length / weights.dims[0]!;
      const bias = parameters.bias.map((value, output) => {
        let sum = 0;
        for (let at = output * perOutput; at < (output + 1) * perOutput; at++) sum += weights.data[at]!;
        return value + offset * sum;
      });
      replaced.set(index, rewrittenConv(graph, index, x, conv.outputs[0]!, { dims: weights.dims, data: weights.data.map((value) => value * scale) }, bias));
      removed.add(add);
      removed.add(mul);
      released.push(...conv.inputs.slice(1).filter((input) => input !== ''), ...graph.nodes[add]!.inputs.filter((input) => input !== shifted[0]), ...graph.nodes[mul]!.inputs.filter((input) => input !== x));
    });
  });
}
