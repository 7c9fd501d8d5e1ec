import { MessageChannel } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../test/helpers';
import { flattenTensors, sharedFloats, unflattenTensors } from './flat-weights';

beforeAll(initBackend);

describe('flat weights', () => {
  it('flattens tensors in order into a given buffer, and refuses one of another length', () => {
    const tensors = [tf.tensor([1, 2, 3]), tf.tensor([[4, 5], [6, 7]])];
    const into = sharedFloats(7);
    expect(flattenTensors(tensors, into)).toBe(into);
    expect(Array.from(into)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(() => flattenTensors(tensors, sharedFloats(6))).toThrow('A flat buffer of 7 values was expected; got 6.');
    const back = unflattenTensors(into, tensors);
    expect(back.map((tensor) => tensor.shape)).toEqual([[3], [2, 2]]);
    tf.dispose([...tensors, ...back]);
  });

  it('posts a shared buffer without copying it: the receiver sees later writes', async () => {
    const buffer = sharedFloats(4);
    expect(buffer.buffer).toBeInstanceOf(SharedArrayBuffer);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<Float32Array>((resolve) => port2.once('message', resolve));
    port1.postMessage(buffer);
    const other = await received;
    buffer[2] = 42;
    expect(other[2]).toBe(42);
    port1.close();
  });
});
