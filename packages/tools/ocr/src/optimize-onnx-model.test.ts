import { readFile } from 'node:fs/promises';
import { bytesField, concatBytes, readMessage, stringField, varintField } from '@saccade/onnx';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { defaultOcrModelPaths } from './ocr-engine';
import { constantNodeBytes, nodeBytes, readGraph } from './onnx-graph';
import { optimizeOnnxModel } from './optimize-onnx-model';

// A float tensor's ValueInfoProto: name, TypeProto { tensor_type { elem_type: FLOAT, shape } }.
function valueInfo(name: string, dims: readonly number[]): Uint8Array {
  const shape = concatBytes(dims.map((dim) => bytesField(1, varintField(1, dim))));
  return concatBytes([stringField(1, name), bytesField(2, bytesField(1, concatBytes([varintField(1, 1), bytesField(2, shape)])))]);
}

/** A ModelProto (IR 7, opset 9) with one input `x` and one output `y`. */
function tinyModel(nodes: readonly Uint8Array[], inputDims: readonly number[], outputDims: readonly number[]): Uint8Array {
  const graph = concatBytes([...nodes.map((node) => bytesField(1, node)), stringField(2, 'tiny'), bytesField(11, valueInfo('x', inputDims)), bytesField(12, valueInfo('y', outputDims))]);
  return concatBytes([varintField(1, 7), bytesField(8, concatBytes([stringField(1, ''), varintField(2, 9)])), bytesField(7, graph)]);
}

const scalar = (name: string, value: number) => constantNodeBytes(name, [1], Float32Array.of(value));
const clipAttributes = [bytesField(5, concatBytes([stringField(1, 'min'), Uint8Array.of(0x15, 0, 0, 0, 0), varintField(20, 1)])), bytesField(5, concatBytes([stringField(1, 'max'), Uint8Array.of(0x15, 0, 0, 0xc0, 0x40), varintField(20, 1)]))];
const ints = (name: string, values: readonly number[]) => bytesField(5, concatBytes([stringField(1, name), ...values.map((value) => varintField(8, value)), varintField(20, 7)]));

async function run(model: Uint8Array, input: Float32Array, dims: readonly number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
  const output = (await session.run({ x: new ort.Tensor('float32', input, dims) })).y!.data as Float32Array;
  await session.release();
  return output;
}

const operators = (model: Uint8Array) => readGraph(model).nodes.map((node) => node.opType);

describe('optimizeOnnxModel', () => {
  it('turns a spelled-out hard-swish into HardSigmoid and Mul, with the same values', async () => {
    const model = tinyModel(
      [scalar('three', 3), scalar('six', 6), nodeBytes('Add', ['x', 'three'], ['shifted'], 'add'), nodeBytes('Clip', ['shifted'], ['clipped'], 'clip', clipAttributes), nodeBytes('Mul', ['x', 'clipped'], ['product'], 'mul'), nodeBytes('Div', ['product', 'six'], ['y'], 'div')],
      [8],
      [8],
    );
    const { model: optimized, rewrites } = optimizeOnnxModel(model);
    expect(rewrites).toEqual({ hardSwishes: 1, scalesAfterConv: 0, scalesBeforeConv: 0 });
    expect(operators(optimized)).toEqual(['HardSigmoid', 'Mul']);
    const x = Float32Array.of(-4, -3, -1, 0, 0.5, 2, 3, 5);
    const expected = [0, 0, -1 / 3, 0, 7 / 24, 5 / 3, 3, 5];
    const before = await run(model, x, [8]);
    const after = await run(optimized, x, [8]);
    expected.forEach((value, index) => {
      expect(before[index]).toBeCloseTo(value, 6);
      expect(after[index]).toBeCloseTo(value, 6);
    });
  });

  it('folds scalar affines after a Conv and before a 1×1 Conv into their weights, not before a padded one', async () => {
    const weights3 = Float32Array.from({ length: 2 * 2 * 9 }, (_, index) => Math.sin(index + 1) / 3);
    const weights1 = Float32Array.of(0.5, -1, 2, 0.25, 1.5, -0.75);
    const nodes = [
      constantNodeBytes('w3', [2, 2, 3, 3], weights3),
      constantNodeBytes('b3', [2], Float32Array.of(0.1, -0.2)),
      nodeBytes('Conv', ['x', 'w3', 'b3'], ['c1'], 'conv3', [ints('kernel_shape', [3, 3]), ints('pads', [1, 1, 1, 1])]),
      scalar('s1', 0.5),
      scalar('a1', 0.25),
      nodeBytes('Mul', ['s1', 'c1'], ['m1'], 'mul1'),
      nodeBytes('Add', ['m1', 'a1'], ['z'], 'add1'),
      scalar('s2', 2),
      scalar('a2', -1),
      nodeBytes('Mul', ['s2', 'z'], ['m2'], 'mul2'),
      nodeBytes('Add', ['m2', 'a2'], ['h'], 'add2'),
      constantNodeBytes('w1', [3, 2, 1, 1], weights1),
      nodeBytes('Conv', ['h', 'w1'], ['y'], 'conv1', [ints('kernel_shape', [1, 1])]),
    ];
    const model = tinyModel(nodes, [1, 2, 4, 5], [1, 3, 4, 5]);
    const { model: optimized, rewrites } = optimizeOnnxModel(model);
    expect(rewrites).toEqual({ hardSwishes: 0, scalesAfterConv: 1, scalesBeforeConv: 1 });
    expect(operators(optimized)).toEqual(['Constant', 'Constant', 'Conv', 'Constant', 'Constant', 'Conv']);
    const x = Float32Array.from({ length: 40 }, (_, index) => Math.cos(index * 0.7));
    const before = await run(model, x, [1, 2, 4, 5]);
    const after = await run(optimized, x, [1, 2, 4, 5]);
    before.forEach((value, index) => expect(after[index]).toBeCloseTo(value, 5));

    // The same affine before a 3×3 Conv with padding stays: padded zeros are not `a2`.
    const padded = tinyModel(
      [...nodes.slice(0, 11), constantNodeBytes('w1', [3, 2, 3, 3], Float32Array.from({ length: 54 }, (_, index) => index / 54)), nodeBytes('Conv', ['h', 'w1'], ['y'], 'conv1', [ints('kernel_shape', [3, 3]), ints('pads', [1, 1, 1, 1])])],
      [1, 2, 4, 5],
      [1, 3, 4, 5],
    );
    expect(optimizeOnnxModel(padded).rewrites).toEqual({ hardSwishes: 0, scalesAfterConv: 1, scalesBeforeConv: 0 });
  });

  it('leaves a graph without the patterns as it was, byte for byte', () => {
    const model = tinyModel([scalar('five', 5), nodeBytes('Div', ['x', 'five'], ['y'], 'div')], [4], [4]);
    const { model: optimized, rewrites } = optimizeOnnxModel(model);
    expect(rewrites).toEqual({ hardSwishes: 0, scalesAfterConv: 0, scalesBeforeConv: 0 });
    expect(optimized).toBe(model);
  });

  it('rewrites the PP-OCRv4 models and keeps their outputs', async () => {
    const paths = defaultOcrModelPaths();
    for (const [path, dims, expected] of [
      [paths.recognitionPath, [1, 3, 48, 96], { hardSwishes: 28, scalesAfterConv: 28, scalesBeforeConv: 12 }],
      [paths.detectionPath, [1, 3, 64, 96], { hardSwishes: 24, scalesAfterConv: 28, scalesBeforeConv: 10 }],
    ] as const) {
      const model = await readFile(path);
      const { model: optimized, rewrites } = optimizeOnnxModel(model);
      expect(rewrites).toEqual(expected);
      const x = Float32Array.from({ length: (dims as readonly number[]).reduce((product, dim) => product * dim, 1) }, (_, index) => Math.sin(index * 0.37) * 0.8);
      const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
      const before = (await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', x, dims) }))[session.outputNames[0]!]!.data as Float32Array;
      await session.release();
      const fast = await ort.InferenceSession.create(optimized, { logSeverityLevel: 3 });
      const after = (await fast.run({ [fast.inputNames[0]!]: new ort.Tensor('float32', x, dims) }))[fast.outputNames[0]!]!.data as Float32Array;
      await fast.release();
      let largest = 0;
      before.forEach((value, index) => (largest = Math.max(largest, Math.abs(value - after[index]!))));
      expect(largest).toBeLessThan(1e-4);
    }
  });

  it('says what is wrong with bytes that are not an ONNX model', () => {
    expect(() => optimizeOnnxModel(Uint8Array.of(0x0a, 0x05, 0x41))).toThrow('expected 5 bytes at byte 2, the message has 1 left');
    expect(() => optimizeOnnxModel(concatBytes([varintField(1, 7)]))).toThrow('expected an ONNX model with a graph (ModelProto field 7), found none');
    expect(() => readMessage(Uint8Array.of(0x0b))).toThrow('expected a protobuf wire type 0, 1, 2 or 5 at byte 0, got 3');
  });
});
