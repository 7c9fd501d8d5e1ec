import { backend_util, MaxPoolGrad, type KernelConfig, type KernelFunc, type MaxPoolGradAttrs, type TensorInfo } from '@tensorflow/tfjs-core';
import { asWasmBackend, heapFloat32 } from './wasm-backend.js';

/**
 * Max-pool gradient: each dy goes to the first maximum of its window, as on the cpu backend.
 * The stock wasm kernel gives wrong values (max error 1.15 against a hand reference).
 */
function maxPoolGrad(args: {
  inputs: { dy: TensorInfo; input: TensorInfo; output: TensorInfo };
  backend: unknown;
  attrs: MaxPoolGradAttrs;
}): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { dy, input } = args.inputs;
  const { filterSize, strides, pad, dimRoundingMode } = args.attrs;
  const info = backend_util.computePool2DInfo(
    input.shape as [number, number, number, number], filterSize, strides, 1, pad, dimRoundingMode,
  );
  const { batchSize, inHeight, inWidth, inChannels: channels, outHeight, outWidth } = info;
  const out = backend.makeOutput([...input.shape], 'float32');
  const xs = heapFloat32(backend, input);
  const dys = heapFloat32(backend, dy);
  const dx = heapFloat32(backend, out);
  dx.fill(0);
  for (let b = 0; b < batchSize; b++) {
    for (let oh = 0; oh < outHeight; oh++) {
      const top = oh * info.strideHeight - info.padInfo.top;
      for (let ow = 0; ow < outWidth; ow++) {
        const left = ow * info.strideWidth - info.padInfo.left;
        const dyBase = ((b * outHeight + oh) * outWidth + ow) * channels;
        for (let c = 0; c < channels; c++) {
          let best = Number.NEGATIVE_INFINITY;
          let bestIndex = -1;
          for (let fh = 0; fh < info.effectiveFilterHeight; fh += info.dilationHeight) {
            const ih = top + fh;
            if (ih < 0 || ih >= inHeight) continue;
            for (let fw = 0; fw < info.effectiveFilterWidth; fw += info.dilationWidth) {
              const iw = left + fw;
              if (iw < 0 || iw >= inWidth) continue;
              const index = ((b * inHeight + ih) * inWidth + iw) * channels + c;
              const value = xs[index] ?? Number.NEGATIVE_INFINITY;
              if (value > best) {
                best = value;
                bestIndex = index;
              }
            }
          }
          if (bestIndex >= 0) dx[bestIndex] = (dx[bestIndex] ?? 0) + (dys[dyBase + c] ?? 0);
        }
      }
    }
  }
  return out;
}

export const maxPoolGradConfig: KernelConfig = {
  kernelName: MaxPoolGrad,
  backendName: 'wasm',
  kernelFunc: maxPoolGrad as unknown as KernelFunc,
};
