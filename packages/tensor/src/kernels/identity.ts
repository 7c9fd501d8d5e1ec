import { Identity, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';
import { runStockKernel, type WasmBackend } from './wasm-backend.js';

/**
 * Identity shares the input's data (reference count +1) instead of copying it, as the cpu
 * backend does: tensors are immutable. The stock wasm kernel copied ~100 activations per training
 * step (gradient plumbing, clones), about a tenth of the step.
 */
function identity(args: { inputs: { x: TensorInfo }; backend: unknown }): TensorInfo {
  const backend = args.backend as WasmBackend & { incRef(dataId: object): void };
  const { x } = args.inputs;
  if (x.dtype === 'string') return runStockKernel(Identity, backend, { x });
  backend.incRef(x.dataId);
  return { dataId: x.dataId, shape: [...x.shape], dtype: x.dtype };
}

export const identityConfig: KernelConfig = {
  kernelName: Identity,
  backendName: 'wasm',
  kernelFunc: identity as unknown as KernelFunc,
};
