import {
  backend_util,
  Conv2DBackpropFilter,
  type Conv2DBackpropFilterAttrs,
  type KernelConfig,
  type KernelFunc,
  type TensorInfo,
} from '@tensorflow/tfjs-core';
import { fastBatchMatMul } from './batch-mat-mul.js';
import { asWasmBackend, heapFloat32, runStockKernel } from './wasm-backend.js';

/**
 * Conv weight gradient as im2col + one matMul: dWᵀ[co, r] = Σ_p dy[p, co] · cols[p, r] with
 * p = (b, oh, ow) and r = (fh, fw, ci). wasm lacks this kernel; the cpu one takes minutes on a
 * 3×3 conv of a 32×32×32 batch of 16. Computing dWᵀ (then transposing the small result) keeps
 * the big cols matrix untransposed and gives XNNPACK a wide right-hand side.
 */
function conv2DBackpropFilter(args: {
  inputs: { x: TensorInfo; dy: TensorInfo };
  backend: unknown;
  attrs: Conv2DBackpropFilterAttrs;
}): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x, dy } = args.inputs;
  const { strides, pad, dataFormat, dimRoundingMode, filterShape } = args.attrs;
  if (dataFormat === 'NCHW') throw new Error('Conv2DBackpropFilter on wasm supports NHWC only');
  const info = backend_util.computeConv2DInfo(
    x.shape as [number, number, number, number], filterShape, strides, 1, pad, dimRoundingMode, false, 'channelsLast',
  );
  const { batchSize, inHeight, inWidth, inChannels, outHeight, outWidth, filterHeight, filterWidth } = info;
  const { dilationHeight, dilationWidth, strideHeight, strideWidth } = info;
  const patches = batchSize * outHeight * outWidth;
  const patchSize = filterHeight * filterWidth * inChannels;

  const cols = backend.makeOutput([patches, patchSize], 'float32');
  const source = heapFloat32(backend, x);
  const target = heapFloat32(backend, cols);
  let write = 0;
  for (let b = 0; b < batchSize; b++) {
    for (let oh = 0; oh < outHeight; oh++) {
      for (let ow = 0; ow < outWidth; ow++) {
        for (let fh = 0; fh < filterHeight; fh++) {
          const ih = oh * strideHeight - info.padInfo.top + fh * dilationHeight;
          for (let fw = 0; fw < filterWidth; fw++) {
            const iw = ow * strideWidth - info.padInfo.left + fw * dilationWidth;
            // Plain loops: subarray()/set() per pixel cost more than the copy itself.
            if (ih < 0 || ih >= inHeight || iw < 0 || iw >= inWidth) {
              for (let ci = 0; ci < inChannels; ci++) target[write + ci] = 0;
            } else {
              const read = ((b * inHeight + ih) * inWidth + iw) * inChannels;
              for (let ci = 0; ci < inChannels; ci++) target[write + ci] = source[read + ci] ?? 0;
            }
            write += inChannels;
          }
        }
      }
    }
  }
  const dy2d = { dataId: dy.dataId, shape: [patches, info.outChannels], dtype: dy.dtype };
  const transposed = fastBatchMatMul(backend, dy2d, cols, true, false);
  backend.disposeData(cols.dataId);
  if (!transposed) throw new Error('Conv2DBackpropFilter: matMul failed');
  const product = runStockKernel('Transpose', backend, { x: transposed }, { perm: [1, 0] });
  backend.disposeData(transposed.dataId);
  return { dataId: product.dataId, shape: [...filterShape], dtype: 'float32' };
}

export const conv2DBackpropFilterConfig: KernelConfig = {
  kernelName: Conv2DBackpropFilter,
  backendName: 'wasm',
  kernelFunc: conv2DBackpropFilter as unknown as KernelFunc,
};
