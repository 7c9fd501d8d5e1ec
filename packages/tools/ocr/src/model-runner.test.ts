import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openModelRunner } from './model-runner';
import { defaultOcrModelPaths } from './ocr-engine';

describe('openModelRunner', () => {
  it('gives the same outputs on worker threads as in this thread, runs overlapping, and closes', async () => {
    const path = defaultOcrModelPaths().recognitionPath;
    const model = await readFile(path);
    const here = await openModelRunner(model, path, 1);
    const workers = await openModelRunner(model, path, 2);
    expect([here.concurrency, workers.concurrency]).toEqual([1, 2]);
    const inputs = [40, 96, 64].map((width) => ({ dims: [1, 3, 48, width], data: Float32Array.from({ length: 3 * 48 * width }, (_, index) => Math.sin(index * 0.1 + width)) }));
    const expected = await Promise.all(inputs.map(({ data, dims }) => here.run(data, dims)));
    const read = await Promise.all(inputs.map(({ data, dims }) => workers.run(data, dims)));
    read.forEach((output, index) => {
      expect(output.dims).toEqual(expected[index]!.dims);
      expect(Array.from(output.data)).toEqual(Array.from(expected[index]!.data));
    });
    await here.close();
    await workers.close();
    await expect(workers.run(inputs[0]!.data, inputs[0]!.dims)).rejects.toThrow(`the runner of ${path} is closed`);
  });

  it('passes a run that fails on a worker back with the model named, and the worker goes on', async () => {
    const path = defaultOcrModelPaths().recognitionPath;
    const runner = await openModelRunner(await readFile(path), path, 2);
    await expect(runner.run(new Float32Array(12), [1, 3, 4])).rejects.toThrow(`the model ${path} failed on a worker thread: `);
    const output = await runner.run(new Float32Array(3 * 48 * 32), [1, 3, 48, 32]);
    expect(output.dims).toEqual([1, 4, 6625]);
    await runner.close();
  });

  it('says which file is not a model', async () => {
    await expect(openModelRunner(Uint8Array.of(1, 2, 3), '/models/broken.onnx', 2)).rejects.toThrow(/^expected an ONNX model at \/models\/broken\.onnx, could not load it in a worker thread: /);
    await expect(openModelRunner(Uint8Array.of(1, 2, 3), '/models/broken.onnx', 1)).rejects.toThrow(/^expected an ONNX model at \/models\/broken\.onnx, could not load it: /);
  });
});
