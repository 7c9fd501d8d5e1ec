import {
  backend_util,
  DepthwiseConv2dNativeBackpropInput,
  type DepthwiseConv2dNativeBackpropInputAttrs,
  type KernelConfig,
  type KernelFunc,
  type TensorInfo,
} from '@tensorflow/tfjs-core';
import { asWasmBackend, heapFloat32 } from './wasm-backend.js';

/** Depthwise conv input gradient (missing on wasm): scatter dy back through the filter. */
function depthwiseConv2dNativeBackpropInput(args: {
  inputs: { dy: TensorInfo; filter: TensorInfo };
  backend: unknown;
  attrs: DepthwiseConv2dNativeBackpropInputAttrs;
}): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { dy, filter } = args.inputs;
  const { strides, dilations, pad, dimRoundingMode, inputShape } = args.attrs;
  const info = backend_util.computeConv2DInfo(
    inputShape, filter.shape as [number, number, number, number], strides, dilations, pad, dimRoundingMode, true,
  );
  const { batchSize, inHeight, inWidth, inChannels, outHeight, outWidth, outChannels, filterHeight, filterWidth } = info;
  const multiplier = outChannels / inChannels;
  const out = backend.makeOutput([...inputShape], 'float32');
  const dys = heapFloat32(backend, dy);
  const ws = heapFloat32(backend, filter);
  const dx = heapFloat32(backend, out);
  dx.fill(0);
  for (let b = 0; b < batchSize; b++) {
    for (let oh = 0; oh < outHeight; oh++) {
      for (let ow = 0; ow < outWidth; ow++) {
        const dyBase = ((b * outHeight + oh) * outWidth + ow) * outChannels;
        for (let fh = 0; fh < filterHeight; fh++) {
          const ih = oh * info.strideHeight - info.padInfo.top + fh * info.dilationHeight;
          if (ih < 0 || ih >= inHeight) continue;
          for (let fw = 0; fw < filterWidth; fw++) {
            const iw = ow * info.strideWidth - info.padInfo.left + fw * info.dilationWidth;
            if (iw < 0 || iw >= inWidth) continue;
            const xBase = ((b * inHeight + ih) * inWidth + iw) * inChannels;
            const filterBase = (fh * filterWidth + fw) * outChannels;
            for (let ci = 0; ci < inChannels; ci++) {
              let sum = 0;
              for (let q = 0; q < multiplier; q++) {
                const channel = ci * multiplier + q;
                sum += (dys[dyBase + channel] ?? 0) * (ws[filterBase + channel] ?? 0);
              }
              dx[xBase + ci] = (dx[xBase + ci] ?? 0) + sum;
            }
          }
        }
      }
    }
  }
  return out;
}

export const depthwiseConv2dNativeBackpropInputConfig: KernelConfig = {
  kernelName: DepthwiseConv2dNativeBackpropInput,
  backendName: 'wasm',
  kernelFunc: depthwiseConv2dNativeBackpropInput as unknown as KernelFunc,
};
