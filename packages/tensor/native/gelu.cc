// GELU (tanh approximation) and its gradient, for the tfjs wasm backend's SaccadeGelu and
// SaccadeGeluGrad kernels (src/kernels/gelu.ts): what assembly/simd-kernels.ts's `gelu` and
// `geluGrad` compute, float for float. Every output is a chain of single float32 operations on
// its own inputs (the Cephes-style exp, the logistic gate), written here in the same order with the
// same constants, and compiled with -ffp-contract=off: so 16 lanes (AVX-512), 8 (AVX2) or one at a
// time (portable) give the wasm kernel's bits, NaN payloads aside.
//
//   gelu(heap, x, out, size)          out[i] = GELU(x[i])
//   geluGrad(heap, x, dy, out, size)  out[i] = dy[i]·GELU'(x[i])
// x, dy, out: byte offsets of float32 arrays on the heap (out may be x or dy).
#include "simd-math.h"

namespace saccade {
namespace {

// The wasm kernel's literals: doubles rounded to float32 (AssemblyScript's <f32> and f32x4.splat).
const float kScale = static_cast<float>(0.7978845608028654);
const float kCubic = static_cast<float>(0.044715);
const float kCubic3 = static_cast<float>(0.134145);

// --- one lane at a time (the portable kernel, and the AVX2 kernel's tail) ---

inline float gateLane(float x, float square) {
  const float u = (x * (square * kCubic + 1.0f)) * kScale;
  return 1.0f / (1.0f + expLane(u * -2.0f));
}

inline float geluLane(float x) { return x * gateLane(x, x * x); }

inline float geluGradLane(float x, float dy) {
  const float square = x * x;
  const float gate = gateLane(x, square);
  const float slope = (square * kCubic3 + 1.0f) * kScale;
  const float inner = (((x + x) * gate) * (1.0f - gate)) * slope;
  return dy * (gate + inner);
}

void geluPortable(const float* x, float* out, std::int64_t size) {
  for (std::int64_t i = 0; i < size; i++) out[i] = geluLane(x[i]);
}

void geluGradPortable(const float* x, const float* dy, float* out, std::int64_t size) {
  for (std::int64_t i = 0; i < size; i++) out[i] = geluGradLane(x[i], dy[i]);
}

#if defined(SACCADE_X86)
// --- AVX2: 8 lanes ---
#define AVX __attribute__((target("avx2")))

AVX inline __m256 gateAvx(__m256 x, __m256 square) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 u = _mm256_mul_ps(_mm256_mul_ps(x, _mm256_add_ps(_mm256_mul_ps(square, _mm256_set1_ps(kCubic)), one)), _mm256_set1_ps(kScale));
  return _mm256_div_ps(one, _mm256_add_ps(one, exp256(_mm256_mul_ps(u, _mm256_set1_ps(-2.0f)))));
}

AVX void geluAvx(const float* x, float* out, std::int64_t size) {
  std::int64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(v, gateAvx(v, _mm256_mul_ps(v, v))));
  }
  geluPortable(x + i, out + i, size - i);
}

AVX void geluGradAvx(const float* x, const float* dy, float* out, std::int64_t size) {
  const __m256 one = _mm256_set1_ps(1.0f);
  std::int64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256 square = _mm256_mul_ps(v, v);
    const __m256 gate = gateAvx(v, square);
    const __m256 slope = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(square, _mm256_set1_ps(kCubic3)), one), _mm256_set1_ps(kScale));
    const __m256 inner = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(v, v), gate), _mm256_sub_ps(one, gate)), slope);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_loadu_ps(dy + i), _mm256_add_ps(gate, inner)));
  }
  geluGradPortable(x + i, dy + i, out + i, size - i);
}
#undef AVX

// --- AVX-512: 16 lanes, the tail under a mask ---
#define AVX512 __attribute__((target("avx512f")))

AVX512 inline __m512 gate512(__m512 x, __m512 square) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 u = _mm512_mul_ps(_mm512_mul_ps(x, _mm512_add_ps(_mm512_mul_ps(square, _mm512_set1_ps(kCubic)), one)), _mm512_set1_ps(kScale));
  return _mm512_div_ps(one, _mm512_add_ps(one, exp512(_mm512_mul_ps(u, _mm512_set1_ps(-2.0f)))));
}

AVX512 inline __mmask16 tailMask(std::int64_t left) { return static_cast<__mmask16>(left >= 16 ? 0xffffu : ((1u << left) - 1u)); }

AVX512 void gelu512(const float* x, float* out, std::int64_t size) {
  for (std::int64_t i = 0; i < size; i += 16) {
    const __mmask16 mask = tailMask(size - i);
    const __m512 v = _mm512_maskz_loadu_ps(mask, x + i);
    _mm512_mask_storeu_ps(out + i, mask, _mm512_mul_ps(v, gate512(v, _mm512_mul_ps(v, v))));
  }
}

AVX512 void geluGrad512(const float* x, const float* dy, float* out, std::int64_t size) {
  const __m512 one = _mm512_set1_ps(1.0f);
  for (std::int64_t i = 0; i < size; i += 16) {
    const __mmask16 mask = tailMask(size - i);
    const __m512 v = _mm512_maskz_loadu_ps(mask, x + i);
    const __m512 square = _mm512_mul_ps(v, v);
    const __m512 gate = gate512(v, square);
    const __m512 slope = _mm512_mul_ps(_mm512_add_ps(_mm512_mul_ps(square, _mm512_set1_ps(kCubic3)), one), _mm512_set1_ps(kScale));
    const __m512 inner = _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(_mm512_add_ps(v, v), gate), _mm512_sub_ps(one, gate)), slope);
    _mm512_mask_storeu_ps(out + i, mask, _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, dy + i), _mm512_add_ps(gate, inner)));
  }
}
#undef AVX512
#endif

// Reads (heap, offsets…, size) with `offsets` float32 arrays of `size` floats each; null after a thrown error.
float* const* arrays(napi_env env, napi_callback_info info, const char* name, int offsets, float** out, std::int64_t* size) {
  napi_value argv[5];
  std::size_t argc = 5;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < static_cast<std::size_t>(offsets + 2)) {
    fail(env, name);
    return nullptr;
  }
  std::uint8_t* heap = nullptr;
  std::size_t heapBytes = 0;
  if (!heapOf(env, argv[0], &heap, &heapBytes) || heap == nullptr) {
    fail(env, "gelu: heap must be an ArrayBuffer or a typed array over one (not detached)");
    return nullptr;
  }
  double values[4];
  if (!wholeNumbers(env, argv, 1, offsets + 1, values)) {
    fail(env, "gelu: offsets and size must be non-negative integers");
    return nullptr;
  }
  const double floats = values[offsets];
  for (int i = 0; i < offsets; i++) {
    if (static_cast<std::int64_t>(values[i]) % 4) {
      fail(env, "gelu: offsets must be 4-byte aligned");
      return nullptr;
    }
    if (values[i] + 4.0 * floats > static_cast<double>(heapBytes)) {
      fail(env, "gelu: array outside the heap");
      return nullptr;
    }
    out[i] = reinterpret_cast<float*>(heap + static_cast<std::size_t>(values[i]));
  }
  *size = static_cast<std::int64_t>(floats);
  return out;
}

}  // namespace

napi_value Gelu(napi_env env, napi_callback_info info) {
  float* p[2];
  std::int64_t size = 0;
  if (!arrays(env, info, "gelu(heap, x, out, size): 4 arguments", 2, p, &size)) return nullptr;
  switch (currentIsa()) {
#if defined(SACCADE_X86)
    case kAvx512: gelu512(p[0], p[1], size); break;
    case kAvx: geluAvx(p[0], p[1], size); break;
#endif
    default: geluPortable(p[0], p[1], size);
  }
  return nullptr;
}

napi_value GeluGrad(napi_env env, napi_callback_info info) {
  float* p[3];
  std::int64_t size = 0;
  if (!arrays(env, info, "geluGrad(heap, x, dy, out, size): 5 arguments", 3, p, &size)) return nullptr;
  switch (currentIsa()) {
#if defined(SACCADE_X86)
    case kAvx512: geluGrad512(p[0], p[1], p[2], size); break;
    case kAvx: geluGradAvx(p[0], p[1], p[2], size); break;
#endif
    default: geluGradPortable(p[0], p[1], p[2], size);
  }
  return nullptr;
}

}  // namespace saccade
