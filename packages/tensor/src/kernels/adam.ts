import type { KernelConfig, KernelFunc, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { runSimdAdam, simdKernelsUnavailable, type AdamStep } from './simd-kernels.js';
import { asWasmBackend, sizeOf, tensorAddress } from './wasm-backend.js';

/** Saccade's fused Adam update of one weight tensor: a kernel only the wasm backend has. */
export const ADAM_KERNEL = 'SaccadeAdam';

function adam(args: { inputs: { x: TensorInfo; gradient: TensorInfo; m: TensorInfo; v: TensorInfo }; backend: unknown; attrs: NamedAttrMap }): TensorInfo[] {
  const backend = asWasmBackend(args.backend);
  const { x, gradient, m, v } = args.inputs;
  const shape = [...x.shape];
  const outputs = [backend.makeOutput(shape, 'float32'), backend.makeOutput(shape, 'float32'), backend.makeOutput(shape, 'float32')] as const;
  const size = sizeOf(shape);
  const offset = (info: TensorInfo) => tensorAddress(backend, info).offset;
  if (size === 0) return [...outputs];
  const ran = runSimdAdam(
    backend,
    { x: offset(x), gradient: offset(gradient), m: offset(m), v: offset(v), xOut: offset(outputs[0]), mOut: offset(outputs[1]), vOut: offset(outputs[2]) },
    size,
    args.attrs as unknown as AdamStep,
  );
  if (ran) return [...outputs];
  for (const output of outputs) backend.disposeData(output.dataId);
  throw simdKernelsUnavailable(ADAM_KERNEL);
}

export const adamConfig: KernelConfig = { kernelName: ADAM_KERNEL, backendName: 'wasm', kernelFunc: adam as unknown as KernelFunc };
