import { getKernel, type DataType, type KernelConfig, type NamedAttrMap, type TensorInfo } from '@tensorflow/tfjs-core';

/**
 * The parts of tfjs-backend-wasm's BackendWasm (4.22) that the kernels here use. Typed
 * structurally because the package's own types pull in Emscripten's globals.
 */
export interface WasmBackend {
  wasm: {
    cwrap(name: string, returnType: null, argTypes: string[]): (...args: unknown[]) => void;
    HEAPU8: Uint8Array;
    tfjs: {
      registerTensor(id: number, size: number, memoryOffset: number): void;
      disposeData(id: number): void;
    };
  };
  dataIdMap: { get(dataId: object): { id: number; memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: DataType): TensorInfo;
  disposeData(dataId: object): boolean;
  typedArrayFromHeap(info: TensorInfo): Float32Array | Int32Array | Uint8Array;
}

export function asWasmBackend(backend: unknown): WasmBackend {
  return backend as WasmBackend;
}

/** The backend's id and heap byte offset of a tensor. */
export function tensorAddress(backend: WasmBackend, info: TensorInfo): { id: number; offset: number } {
  const data = backend.dataIdMap.get(info.dataId);
  if (!data) throw new Error('tensor data not found on the wasm backend');
  return { id: data.id, offset: data.memoryOffset };
}

/**
 * A float32 view of a tensor's data on the wasm heap. Take views only after every allocation of
 * the kernel: a malloc can grow the heap and detach earlier views.
 */
export function heapFloat32(backend: WasmBackend, info: TensorInfo): Float32Array {
  const view = backend.typedArrayFromHeap(info);
  if (!(view instanceof Float32Array)) throw new Error(`expected float32, got ${info.dtype}`);
  return view;
}

export function heapValues(backend: WasmBackend, info: TensorInfo): Float32Array | Int32Array | Uint8Array {
  return backend.typedArrayFromHeap(info);
}

/**
 * Registers a window [offset, offset + size) of an existing tensor's memory as a tensor id the C++
 * kernels accept, with no copy. Release it with `releaseView` (which never frees the memory).
 */
export function registerView(backend: WasmBackend, offset: number, size: number): number {
  const owner = backend as unknown as { dataIdNextNumber: number };
  const id = owner.dataIdNextNumber++;
  backend.wasm.tfjs.registerTensor(id, size, offset);
  return id;
}

export function releaseView(backend: WasmBackend, id: number): void {
  // Drops the C++ tensor entry and its cached XNNPACK operators; the memory belongs to the owner.
  backend.wasm.tfjs.disposeData(id);
}

// null: wasm ships no kernel of that name.
const stockKernels = new Map<string, KernelConfig | null>();

/** Remembers the kernel wasm ships for `name`; call before any fix replaces it. */
export function rememberStockKernel(name: string): void {
  if (!stockKernels.has(name)) stockKernels.set(name, getKernel(name, 'wasm') ?? null);
}

/** The kernel wasm ships for `name`, if it has one and it was remembered. */
export function stockKernel(name: string): KernelConfig | undefined {
  return stockKernels.get(name) ?? undefined;
}

/** Runs a kernel wasm ships (the stock one where a fix replaced it). */
export function runStockKernel(
  name: string,
  backend: WasmBackend,
  inputs: Record<string, TensorInfo>,
  attrs: NamedAttrMap = {},
): TensorInfo {
  const kernel = (stockKernels.get(name) ?? getKernel(name, 'wasm'))?.kernelFunc;
  if (!kernel) throw new Error(`wasm kernel ${name} not found`);
  return kernel({ inputs, backend: backend as never, attrs }) as TensorInfo;
}

export function sizeOf(shape: readonly number[]): number {
  let size = 1;
  for (const dimension of shape) size *= dimension;
  return size;
}
