import { backend_util, SplitV, util, type KernelConfig, type KernelFunc, type SplitVAttrs, type TensorInfo } from '@tensorflow/tfjs-core';
import { slice } from './slice.js';

/**
 * SplitV as row copies straight from the heap (Saccade's Slice, once per piece). The stock kernel
 * calls the stock slice, which copies the whole input out of the heap for every piece: splitting
 * q, k, v and the gradients of concatenations cost ~5% of a training step.
 */
function splitV(args: { inputs: { x: TensorInfo }; backend: unknown; attrs: SplitVAttrs }): TensorInfo[] {
  const { x } = args.inputs;
  const axis = util.parseAxisParam(args.attrs.axis, x.shape)[0] ?? 0;
  const sizes = backend_util.prepareSplitSize(x as never, args.attrs.numOrSizeSplits, axis);
  const begin = new Array<number>(x.shape.length).fill(0);
  return sizes.map((piece) => {
    const size = [...x.shape];
    size[axis] = piece;
    const out = slice({ inputs: { x }, backend: args.backend, attrs: { begin: [...begin], size } });
    begin[axis] = (begin[axis] ?? 0) + piece;
    return out;
  });
}

export const splitVConfig: KernelConfig = {
  kernelName: SplitV,
  backendName: 'wasm',
  kernelFunc: splitV as unknown as KernelFunc,
};
