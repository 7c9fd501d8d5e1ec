// Writes a one-node ONNX model (y = x + [1, 2, 3]) with the protobuf field writers, reads its graph
// name back from the bytes, and runs it on onnxruntime-node.
// Run after a build: node packages/onnx/examples/add-model.mjs
import { bytesField, bytesOf, concatBytes, openSession, readMessage, stringField, textOf, varintField } from '@saccade/onnx';
import * as ort from 'onnxruntime-node';

const FLOAT = 1;
const valueInfo = (name) =>
  concatBytes([stringField(1, name), bytesField(2, bytesField(1, concatBytes([varintField(1, FLOAT), bytesField(2, concatBytes([1, 3].map((dim) => bytesField(1, varintField(1, dim)))))])))]);
const bias = concatBytes([varintField(1, 1), varintField(1, 3), varintField(2, FLOAT), stringField(8, 'bias'), bytesField(9, new Uint8Array(Float32Array.of(1, 2, 3).buffer))]);
const node = concatBytes([stringField(1, 'x'), stringField(1, 'bias'), stringField(2, 'y'), stringField(4, 'Add')]);
const graph = concatBytes([bytesField(1, node), stringField(2, 'add-bias'), bytesField(5, bias), bytesField(11, valueInfo('x')), bytesField(12, valueInfo('y'))]);
const model = concatBytes([varintField(1, 8), bytesField(7, graph), bytesField(8, concatBytes([stringField(1, ''), varintField(2, 13)]))]);

const graphField = readMessage(model).find((field) => field.field === 7);
const name = readMessage(bytesOf(graphField)).find((field) => field.field === 2);
console.log(`${model.length} bytes, graph "${textOf(name)}"`);

const session = await openSession(model, 'add-bias.onnx');
const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.of(0.5, -2, 10), [1, 3]) });
console.log('y =', Array.from(y.data)); // y = [ 1.5, 0, 13 ]
await session.release();
