import {
  backend_util,
  DepthwiseConv2dNativeBackpropFilter,
  type DepthwiseConv2dNativeBackpropFilterAttrs,
  type KernelConfig,
  type KernelFunc,
  type TensorInfo,
} from '@tensorflow/tfjs-core';
import { asWasmBackend, heapFloat32 } from './wasm-backend.js';

/** Depthwise conv weight gradient (missing on wasm): direct loops, the work is small. */
function depthwiseConv2dNativeBackpropFilter(args: {
  inputs: { x: TensorInfo; dy: TensorInfo };
  backend: unknown;
  attrs: DepthwiseConv2dNativeBackpropFilterAttrs;
}): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { x, dy } = args.inputs;
  const { strides, dilations, pad, dimRoundingMode, filterShape } = args.attrs;
  const info = backend_util.computeConv2DInfo(
    x.shape as [number, number, number, number], filterShape, strides, dilations, pad, dimRoundingMode, true,
  );
  const { batchSize, inHeight, inWidth, inChannels, outHeight, outWidth, outChannels, filterHeight, filterWidth } = info;
  const multiplier = outChannels / inChannels;
  const out = backend.makeOutput([...filterShape], 'float32');
  const xs = heapFloat32(backend, x);
  const dys = heapFloat32(backend, dy);
  const dw = heapFloat32(backend, out);
  dw.fill(0);
  for (let fh = 0; fh < filterHeight; fh++) {
    for (let fw = 0; fw < filterWidth; fw++) {
      const filterBase = (fh * filterWidth + fw) * outChannels;
      for (let b = 0; b < batchSize; b++) {
        for (let oh = 0; oh < outHeight; oh++) {
          const ih = oh * info.strideHeight - info.padInfo.top + fh * info.dilationHeight;
          if (ih < 0 || ih >= inHeight) continue;
          for (let ow = 0; ow < outWidth; ow++) {
            const iw = ow * info.strideWidth - info.padInfo.left + fw * info.dilationWidth;
            if (iw < 0 || iw >= inWidth) continue;
            const xBase = ((b * inHeight + ih) * inWidth + iw) * inChannels;
            const dyBase = ((b * outHeight + oh) * outWidth + ow) * outChannels;
            for (let ci = 0; ci < inChannels; ci++) {
              const value = xs[xBase + ci] ?? 0;
              for (let q = 0; q < multiplier; q++) {
                const channel = ci * multiplier + q;
                dw[filterBase + channel] = (dw[filterBase + channel] ?? 0) + value * (dys[dyBase + channel] ?? 0);
              }
            }
          }
        }
      }
    }
  }
  return out;
}

export const depthwiseConv2dNativeBackpropFilterConfig: KernelConfig = {
  kernelName: DepthwiseConv2dNativeBackpropFilter,
  backendName: 'wasm',
  kernelFunc: depthwiseConv2dNativeBackpropFilter as unknown as KernelFunc,
};
