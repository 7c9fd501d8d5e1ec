// e^y as assembly/simd-kernels.ts's expLanes computes it (a Cephes-style polynomial after reduction
// by ln 2, y clamped to [−87.3, 88.3]), one lane at a time, 8 lanes (AVX2) or 16 (AVX-512): the same
// float32 operations in the same order with the same constants, so every width gives the wasm
// kernel's bits (NaN payloads aside). Built with -ffp-contract=off: no fused multiply-add.
#pragma once
#include "addon.h"

#include <cmath>
#include <cstdint>

namespace saccade {

// The wasm kernel's literals: doubles rounded to float32 (AssemblyScript's <f32> and f32x4.splat).
inline const float kExpHigh = static_cast<float>(88.3), kExpLow = static_cast<float>(-87.3);
inline const float kLog2e = static_cast<float>(1.44269504088896341);
inline const float kLn2High = static_cast<float>(0.693359375), kLn2Low = static_cast<float>(-2.12194440e-4);
inline const float kExpP0 = static_cast<float>(1.9875691500e-4), kExpP1 = static_cast<float>(1.3981999507e-3),
                   kExpP2 = static_cast<float>(8.3334519073e-3), kExpP3 = static_cast<float>(4.1665795894e-2),
                   kExpP4 = static_cast<float>(1.6666665459e-1), kExpP5 = static_cast<float>(5.0000001201e-1);

inline float expLane(float input) {
  // wasm's min/max propagate NaN: `c < v ? c : v` keeps a NaN input, as the vector kernels do.
  float y = kExpHigh < input ? kExpHigh : input;
  y = kExpLow > y ? kExpLow : y;
  const float n = std::nearbyint(y * kLog2e);
  const float r = (y - n * kLn2High) - n * kLn2Low;
  float p = kExpP0 * r + kExpP1;
  p = p * r + kExpP2;
  p = p * r + kExpP3;
  p = p * r + kExpP4;
  p = p * r + kExpP5;
  const float e = ((p * r) * r + r) + 1.0f;
  // n is in [−126, 127] after the clamp (a NaN n gives a NaN e either way).
  const std::int32_t bits = (n == n ? static_cast<std::int32_t>(n) + 127 : 127) << 23;
  float scale;
  __builtin_memcpy(&scale, &bits, sizeof scale);
  return e * scale;
}

/** e^y, exactly 0 below −87.3 (a masked score), as the wasm kernel's expOrZero. */
inline float expOrZeroLane(float y) { return y < kExpLow ? 0.0f : expLane(y); }

#if defined(SACCADE_X86)
__attribute__((target("avx2"))) inline __m256 exp256(__m256 input) {
  __m256 y = _mm256_min_ps(_mm256_set1_ps(kExpHigh), input);  // (a < b ? a : b): a NaN input is kept
  y = _mm256_max_ps(_mm256_set1_ps(kExpLow), y);
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(y, _mm256_set1_ps(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 r = _mm256_sub_ps(_mm256_sub_ps(y, _mm256_mul_ps(n, _mm256_set1_ps(kLn2High))), _mm256_mul_ps(n, _mm256_set1_ps(kLn2Low)));
  __m256 p = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(kExpP0), r), _mm256_set1_ps(kExpP1));
  p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(kExpP2));
  p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(kExpP3));
  p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(kExpP4));
  p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(kExpP5));
  const __m256 e = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(p, r), r), r), _mm256_set1_ps(1.0f));
  const __m256i scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(e, _mm256_castsi256_ps(scale));
}

__attribute__((target("avx512f"))) inline __m512 exp512(__m512 input) {
  __m512 y = _mm512_min_ps(_mm512_set1_ps(kExpHigh), input);
  y = _mm512_max_ps(_mm512_set1_ps(kExpLow), y);
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(y, _mm512_set1_ps(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 r = _mm512_sub_ps(_mm512_sub_ps(y, _mm512_mul_ps(n, _mm512_set1_ps(kLn2High))), _mm512_mul_ps(n, _mm512_set1_ps(kLn2Low)));
  __m512 p = _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(kExpP0), r), _mm512_set1_ps(kExpP1));
  p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(kExpP2));
  p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(kExpP3));
  p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(kExpP4));
  p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(kExpP5));
  const __m512 e = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(p, r), r), r), _mm512_set1_ps(1.0f));
  const __m512i scale = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvttps_epi32(n), _mm512_set1_epi32(127)), 23);
  return _mm512_mul_ps(e, _mm512_castsi512_ps(scale));
}
#endif

}  // namespace saccade
