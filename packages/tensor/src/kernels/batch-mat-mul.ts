import {
  BatchMatMul,
  broadcast_util,
  type BatchMatMulAttrs,
  type KernelConfig,
  type KernelFunc,
  type TensorInfo,
} from '@tensorflow/tfjs-core';
import {
  asWasmBackend,
  registerView,
  releaseView,
  runStockKernel,
  sizeOf,
  tensorAddress,
  type WasmBackend,
} from './wasm-backend.js';
import { runSimdBatchMatMul, type SimdProduct } from './simd-kernels.js';
import { nativeMatMulEnabled, runNativeBatchMatMul } from './native-matmul.js';

type WasmBatchMatMul = (...args: unknown[]) => void;
const wrapped = new WeakMap<object, WasmBatchMatMul>();

function wasmBatchMatMul(backend: WasmBackend): WasmBatchMatMul {
  let call = wrapped.get(backend.wasm);
  if (!call) {
    // The exported C function of the stock kernel; we only ever call it on its fast path.
    call = backend.wasm.cwrap(BatchMatMul, null, [
      'number', 'array', 'number', 'number', 'array', 'number', 'number', 'number', 'number',
    ]);
    wrapped.set(backend.wasm, call);
  }
  return call;
}

function shapeBytes(shape: number[]): Uint8Array {
  return new Uint8Array(new Int32Array(shape).buffer);
}

/** Transposes the last two axes of a [batch, rows, cols] view with the wasm Transpose kernel. */
function transposeLastTwo(backend: WasmBackend, x: TensorInfo, batch: number, rows: number, cols: number): TensorInfo {
  const input = { dataId: x.dataId, shape: [batch, rows, cols], dtype: x.dtype };
  return runStockKernel('Transpose', backend, { x: input }, { perm: [0, 2, 1] });
}

/**
 * Product of [batchA, M, K] and [batchB, K, N] (batchA = batchB, or either is 1), always on
 * XNNPACK's fast path: the stock kernel takes it only for one plain 2-D product and otherwise runs
 * a scalar loop about 10× slower. Transposed operands are made contiguous with the wasm Transpose
 * kernel; a right-hand side shared by the batch folds the batch into rows (one call); a true batch
 * (attention) and Aᵀ·B (weight gradients) run Saccade's SIMD kernel in place on the heap; without
 * it a true batch runs one XNNPACK call per item on zero-copy views into the operands and output.
 */
export function fastBatchMatMul(
  backend: WasmBackend,
  a: TensorInfo,
  b: TensorInfo,
  transposeA: boolean,
  transposeB: boolean,
): TensorInfo | undefined {
  if (a.dtype !== 'float32' || b.dtype !== 'float32') return undefined;
  const aRank = a.shape.length;
  const bRank = b.shape.length;
  const aDims = a.shape as number[];
  const bDims = b.shape as number[];
  const m = aDims[transposeA ? aRank - 1 : aRank - 2] ?? 0;
  const k = aDims[transposeA ? aRank - 2 : aRank - 1] ?? 0;
  const kB = bDims[transposeB ? bRank - 1 : bRank - 2] ?? 0;
  const n = bDims[transposeB ? bRank - 2 : bRank - 1] ?? 0;
  const batchA = sizeOf(aDims.slice(0, -2));
  const batchB = sizeOf(bDims.slice(0, -2));
  if (k !== kB || m === 0 || n === 0 || k === 0) return undefined;
  if (batchA !== batchB && batchA !== 1 && batchB !== 1) return undefined;
  const outerShape = broadcast_util.assertAndGetBroadcastShape(aDims.slice(0, -2), bDims.slice(0, -2));
  if (sizeOf(outerShape) !== Math.max(batchA, batchB)) return undefined;

  const batch = Math.max(batchA, batchB);
  const outShape = [...outerShape, m, n];

  // A kernel that writes C in place on the heap, transposes and broadcasts included: undefined
  // (nothing left allocated) when it is unavailable.
  const inPlace = (run: (backend: WasmBackend, product: SimdProduct) => boolean): TensorInfo | undefined => {
    const out = backend.makeOutput([batch, m, n], 'float32');
    const product: SimdProduct = {
      a: tensorAddress(backend, a).offset,
      b: tensorAddress(backend, b).offset,
      c: tensorAddress(backend, out).offset,
      batch,
      m,
      k,
      n,
      aBatchStride: batchA === 1 ? 0 : m * k,
      bBatchStride: batchB === 1 ? 0 : k * n,
      transposeA,
      transposeB,
    };
    if (run(backend, product)) return { dataId: out.dataId, shape: outShape, dtype: 'float32' };
    backend.disposeData(out.dataId);
    return undefined;
  };

  if (nativeMatMulEnabled()) {
    // Opt-in (SACCADE_NATIVE_MATMUL=1): every product on the native kernel (kernels/native-matmul.ts).
    const result = inPlace(runNativeBatchMatMul);
    if (result) return result;
  }

  if (batchB > 1 || (batch === 1 && transposeA && !transposeB)) {
    // Saccade's SIMD kernel, in place on the heap, transposes included, for a true batch of small
    // products (attention: ~2× XNNPACK called per item, which pays a call, operator setup and
    // weight packing per item) and for Aᵀ·B (weight gradients: no transpose of A and no packing
    // of B, ~1.4× XNNPACK). XNNPACK stays faster on plain and B-transposed 2-D products
    // (docs/tensor.md).
    const result = inPlace(runSimdBatchMatMul);
    if (result) return result;
  }

  const aReady = transposeA ? transposeLastTwo(backend, a, batchA, k, m) : a;
  const bReady = transposeB ? transposeLastTwo(backend, b, batchB, n, k) : b;
  const out = backend.makeOutput([batch, m, n], 'float32');
  const call = wasmBatchMatMul(backend);
  const aAddress = tensorAddress(backend, aReady);
  const bAddress = tensorAddress(backend, bReady);
  const outAddress = tensorAddress(backend, out);
  const bShape = shapeBytes([1, k, n]);

  if (batchB === 1) {
    // Shared right-hand side: fold the batch into rows, one product.
    call(aAddress.id, shapeBytes([1, batchA * m, k]), 3, bAddress.id, bShape, 3, 0, 0, outAddress.id);
  } else {
    const aShape = shapeBytes([1, m, k]);
    for (let item = 0; item < batch; item++) {
      const aId = batchA === 1 ? aAddress.id : registerView(backend, aAddress.offset + item * m * k * 4, m * k);
      const bId = registerView(backend, bAddress.offset + item * k * n * 4, k * n);
      const outId = registerView(backend, outAddress.offset + item * m * n * 4, m * n);
      call(aId, aShape, 3, bId, bShape, 3, 0, 0, outId);
      if (batchA !== 1) releaseView(backend, aId);
      releaseView(backend, bId);
      releaseView(backend, outId);
    }
  }
  if (aReady !== a) backend.disposeData(aReady.dataId);
  if (bReady !== b) backend.disposeData(bReady.dataId);
  return { dataId: out.dataId, shape: outShape, dtype: 'float32' };
}

function batchMatMul(args: { inputs: { a: TensorInfo; b: TensorInfo }; backend: unknown; attrs: BatchMatMulAttrs }): TensorInfo {
  const backend = asWasmBackend(args.backend);
  const { a, b } = args.inputs;
  const { transposeA, transposeB } = args.attrs;
  return (
    fastBatchMatMul(backend, a, b, transposeA, transposeB) ??
    runStockKernel(BatchMatMul, backend, { a, b }, { transposeA, transposeB })
  );
}

export const batchMatMulConfig: KernelConfig = {
  kernelName: BatchMatMul,
  backendName: 'wasm',
  kernelFunc: batchMatMul as unknown as KernelFunc,
};
