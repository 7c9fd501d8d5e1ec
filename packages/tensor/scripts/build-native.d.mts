/** Directory holding Node's node_api.h, or undefined. */
export function nodeIncludeDir(): string | undefined;
/** Compiles native/matmul.cc to dist/matmul.node with g++; never throws. `onlyIfStale` keeps an up-to-date addon. */
export function buildNative(options?: { onlyIfStale?: boolean }): { built: true; path: string } | { built: false; reason: string };
