import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { openSession } from './open-session';
import { bytesField, concatBytes, stringField, varintField } from './protobuf-wire';

const FLOAT = 1;

/** A float tensor's ValueInfoProto: name, TypeProto { tensor_type { elem_type, shape { dim { dim_value } } } }. */
function valueInfo(name: string, dims: readonly number[]): Uint8Array {
  const shape = concatBytes(dims.map((dim) => bytesField(1, varintField(1, dim))));
  return concatBytes([stringField(1, name), bytesField(2, bytesField(1, concatBytes([varintField(1, FLOAT), bytesField(2, shape)])))]);
}

/** A real ONNX model (onnx.proto3 field numbers, opset 13): y = x + [1, 2, 3] for x of shape [1, 3]. */
function addModel(): Uint8Array {
  const bias = concatBytes([varintField(1, 1), varintField(1, 3), varintField(2, FLOAT), stringField(8, 'bias'), bytesField(9, new Uint8Array(Float32Array.of(1, 2, 3).buffer))]);
  const add = concatBytes([stringField(1, 'x'), stringField(1, 'bias'), stringField(2, 'y'), stringField(3, 'add'), stringField(4, 'Add')]);
  const graph = concatBytes([bytesField(1, add), stringField(2, 'add-bias'), bytesField(5, bias), bytesField(11, valueInfo('x', [1, 3])), bytesField(12, valueInfo('y', [1, 3]))]);
  return concatBytes([varintField(1, 8), stringField(2, 'saccade-test'), bytesField(7, graph), bytesField(8, concatBytes([stringField(1, ''), varintField(2, 13)]))]);
}

describe('openSession', () => {
  it('opens a model from its bytes on the CPU and runs it', async () => {
    const session = await openSession(addModel(), 'add-bias.onnx', 2);
    expect([session.inputNames, session.outputNames]).toEqual([['x'], ['y']]);
    const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.of(0.5, -2, 10), [1, 3]) });
    expect([Array.from(y!.data as Float32Array), y!.dims]).toEqual([[1.5, 0, 13], [1, 3]]);
    await session.release();
  });

  it('names the model that could not be loaded', async () => {
    await expect(openSession(Uint8Array.of(1, 2, 3), '/models/broken.onnx')).rejects.toThrow(/^expected an ONNX model at \/models\/broken\.onnx, could not load it: /);
  });
});
