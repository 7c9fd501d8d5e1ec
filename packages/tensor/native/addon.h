// What the files of Saccade's native addon share (matmul.cc holds the module's entry point): the
// instruction sets and this thread's choice among them, and the N-API helpers every kernel's
// binding uses. Every kernel works in place on the tfjs wasm backend's heap.
#pragma once
#include <node_api.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#if defined(__x86_64__) || defined(__i386__)
#define SACCADE_X86 1
#include <immintrin.h>
#endif

namespace saccade {

// The instruction sets, best first; `supported` asks the CPU.
enum Isa { kAvx512 = 0, kAvx = 1, kPortable = 2 };
inline const char* const kIsaNames[] = {"avx512f", "avx2", "portable"};

inline bool supported(int isa) {
#if defined(SACCADE_X86)
  __builtin_cpu_init();
  if (isa == kAvx512) return __builtin_cpu_supports("avx512f");
  if (isa == kAvx) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return isa == kPortable;
}

inline int bestIsa() {
  for (int isa : {kAvx512, kAvx, kPortable})
    if (supported(isa)) return isa;
  return kPortable;
}

// This thread's settings (configure()): the instruction set and the products' mode.
inline thread_local int threadIsa = -1;
inline thread_local bool threadFused = false;

inline int currentIsa() {
  if (threadIsa < 0) threadIsa = bestIsa();
  return threadIsa;
}

inline napi_value fail(napi_env env, const char* message) {
  napi_throw_error(env, nullptr, message);
  return nullptr;
}

// The heap's bytes: an ArrayBuffer, or a typed array over one (offsets count from the buffer's start).
inline bool heapOf(napi_env env, napi_value value, std::uint8_t** data, std::size_t* length) {
  bool is = false;
  void* raw = nullptr;
  if (napi_is_arraybuffer(env, value, &is) == napi_ok && is) {
    if (napi_get_arraybuffer_info(env, value, &raw, length) != napi_ok) return false;
    *data = static_cast<std::uint8_t*>(raw);
    return true;
  }
  if (napi_is_typedarray(env, value, &is) == napi_ok && is) {
    napi_typedarray_type type;
    std::size_t elements = 0;
    napi_value buffer;
    std::size_t byteOffset = 0;
    if (napi_get_typedarray_info(env, value, &type, &elements, &raw, &buffer, &byteOffset) != napi_ok) return false;
    void* base = nullptr;
    if (napi_get_arraybuffer_info(env, buffer, &base, length) != napi_ok) return false;
    *data = static_cast<std::uint8_t*>(base);
    return true;
  }
  return false;
}

// Reads argv[from, from + count) as non-negative whole numbers below 2^53 into out; false if one is not.
inline bool wholeNumbers(napi_env env, const napi_value* argv, int from, int count, double* out) {
  for (int i = 0; i < count; i++) {
    double v = 0;
    if (napi_get_value_double(env, argv[from + i], &v) != napi_ok) return false;
    if (!(v >= 0) || v > 9.0e15 || v != static_cast<double>(static_cast<std::int64_t>(v))) return false;
    out[i] = v;
  }
  return true;
}

// Elementwise kernels (gelu.cc).
napi_value Gelu(napi_env env, napi_callback_info info);
napi_value GeluGrad(napi_env env, napi_callback_info info);
// Fused multi-head attention (attention.cc).
napi_value FusedAttention(napi_env env, napi_callback_info info);
napi_value FusedAttentionGrad(napi_env env, napi_callback_info info);

}  // namespace saccade
