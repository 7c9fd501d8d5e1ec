export { tf } from './tf.js';
export { initTensor, getTf, backendInfo, type BackendInfo, type InitTensorOptions } from './init-tensor.js';
export { TensorBackendError, type BackendAttempt, type BackendName } from './tensor-backend-error.js';
export { registerWasmKernels, unregisterWasmKernels, wasmKernelConfigs } from './register-wasm-kernels.js';
export { maskedSum, type MaskedReduceOptions } from './masked-sum.js';
export { maskedMean } from './masked-mean.js';
export { maskedWhiten, type MaskedWhitenOptions } from './masked-whiten.js';
export { gatherLogProbs } from './gather-log-probs.js';
export { entropyFromLogits } from './entropy-from-logits.js';
