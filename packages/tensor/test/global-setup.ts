import { buildWasm } from '../scripts/build-wasm.mjs';

/** Compiles the AssemblyScript kernels when dist/ lacks them (tests run before a build). */
export default async function setup(): Promise<void> {
  await buildWasm({ onlyIfStale: true });
}
