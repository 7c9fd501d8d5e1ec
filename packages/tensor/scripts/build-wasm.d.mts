/** Compiles assembly/*.ts to dist/*.wasm with asc (SIMD); `onlyIfStale` skips up-to-date files. */
export function buildWasm(options?: { onlyIfStale?: boolean }): Promise<void>;
