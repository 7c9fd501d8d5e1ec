// Fused multi-head attention and its gradient for the tfjs wasm backend's SaccadeFusedAttention and
// SaccadeFusedAttentionGrad kernels (src/kernels/fused-attention.ts): what assembly/simd-kernels.ts's
// `attention` and `attentionGrad` compute, bit for bit (attention-kernel.inc says how), with 16
// lanes (AVX-512) or 8 (AVX2). On the portable instruction set the call reports false and the
// wasm kernel runs.
//
//   attention(heap, qkv, bias, out, stats, batch, length, heads, size, biasStride, scale) → bool
//   attentionGrad(heap, qkv, bias, dy, stats, dqkv, batch, length, heads, size, biasStride, scale) → bool
// Byte offsets on the heap: qkv [batch·length, 3·heads·size] (q | k | v, heads side by side), bias
// [length, length] per batch item `biasStride` floats apart, or −1 for none; out [batch·length,
// heads·size]; stats [batch, heads, length, 2] (each row's max and Σ e, written forward, read
// backward); dy like out; dqkv like qkv (every float written). Scratch is this thread's own.
#include "simd-math.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace saccade {
namespace {

// A key whose bias is at or below this is masked (rows end before their masked keys).
const float kMaskLimit = -1e8f;

struct Attention {
  const float* qkv;
  const float* bias;
  bool hasBias;
  std::ptrdiff_t biasStride;
  float* out;
  float* stats;
  const float* dy;
  float* dqkv;
  int batch, length, heads, size;
  float scale;
};

// The largest of `count` lanes, NaN if any is NaN (the kernels' vector maxima end here).
float maxOfLanes(const float* lanes, int count) {
  float m = lanes[0];
  for (int i = 1; i < count; i++) m = (m != m || lanes[i] != lanes[i]) ? NAN : (lanes[i] > m ? lanes[i] : m);
  return m;
}

#if defined(SACCADE_X86)
#pragma GCC push_options
#pragma GCC target("avx512f")
namespace avx512 {
struct V {
  static constexpr int W = 16;
  using vec = __m512;
  static __mmask16 mask(int count) { return static_cast<__mmask16>(count >= 16 ? 0xffffu : ((1u << count) - 1u)); }
  static vec zero() { return _mm512_setzero_ps(); }
  static vec set1(float x) { return _mm512_set1_ps(x); }
  static vec load(const float* p, int count) { return count == 16 ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(mask(count), p); }
  static void store(float* p, vec v, int count) {
    if (count == 16) _mm512_storeu_ps(p, v);
    else _mm512_mask_storeu_ps(p, mask(count), v);
  }
  static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
  static vec sub(vec a, vec b) { return _mm512_sub_ps(a, b); }
  static vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
  static vec div(vec a, vec b) { return _mm512_div_ps(a, b); }
  static vec fill(vec x, int count, float value) { return _mm512_mask_blend_ps(mask(count), _mm512_set1_ps(value), x); }
  // max that keeps a NaN from either side (x86's max returns its second operand on a NaN).
  static vec maxPropagatingNaN(vec top, vec x) { return _mm512_mask_mov_ps(_mm512_max_ps(x, top), _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x); }
  static float maxOf(vec v) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, v);
    return maxOfLanes(lanes, 16);
  }
  static vec expOrZero(vec y) { return _mm512_maskz_mov_ps(static_cast<__mmask16>(~_mm512_cmp_ps_mask(y, _mm512_set1_ps(kExpLow), _CMP_LT_OQ)), exp512(y)); }
  static float first(vec v) { return _mm512_cvtss_f32(v); }
  // sums += the first `groups` 4-lane groups of e, in order.
  static void accumulate4(__m128& sums, vec e, int groups) {
    sums = _mm_add_ps(sums, _mm512_castps512_ps128(e));
    if (groups > 1) sums = _mm_add_ps(sums, _mm512_extractf32x4_ps(e, 1));
    if (groups > 2) sums = _mm_add_ps(sums, _mm512_extractf32x4_ps(e, 2));
    if (groups > 3) sums = _mm_add_ps(sums, _mm512_extractf32x4_ps(e, 3));
  }
};
#include "attention-kernel.inc"
}  // namespace avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2 {
struct V {
  static constexpr int W = 8;
  using vec = __m256;
  static __m256i mask(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static vec zero() { return _mm256_setzero_ps(); }
  static vec set1(float x) { return _mm256_set1_ps(x); }
  static vec load(const float* p, int count) { return count == 8 ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, mask(count)); }
  static void store(float* p, vec v, int count) {
    if (count == 8) _mm256_storeu_ps(p, v);
    else _mm256_maskstore_ps(p, mask(count), v);
  }
  static vec add(vec a, vec b) { return _mm256_add_ps(a, b); }
  static vec sub(vec a, vec b) { return _mm256_sub_ps(a, b); }
  static vec mul(vec a, vec b) { return _mm256_mul_ps(a, b); }
  static vec div(vec a, vec b) { return _mm256_div_ps(a, b); }
  static vec fill(vec x, int count, float value) { return _mm256_blendv_ps(_mm256_set1_ps(value), x, _mm256_castsi256_ps(mask(count))); }
  static vec maxPropagatingNaN(vec top, vec x) { return _mm256_blendv_ps(_mm256_max_ps(x, top), x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)); }
  static float maxOf(vec v) {
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, v);
    return maxOfLanes(lanes, 8);
  }
  static vec expOrZero(vec y) { return _mm256_andnot_ps(_mm256_cmp_ps(y, _mm256_set1_ps(kExpLow), _CMP_LT_OQ), exp256(y)); }
  static float first(vec v) { return _mm256_cvtss_f32(v); }
  static void accumulate4(__m128& sums, vec e, int groups) {
    sums = _mm_add_ps(sums, _mm256_castps256_ps128(e));
    if (groups > 1) sums = _mm_add_ps(sums, _mm256_extractf128_ps(e, 1));
  }
};
#include "attention-kernel.inc"
}  // namespace avx2
#pragma GCC pop_options
#endif

// This thread's scratch, grown on demand.
thread_local std::vector<float> scratchFloats;
thread_local std::vector<int> scratchInts;

// Reads the call's arguments into `at`; false after a thrown error. `grad`: attentionGrad's layout.
bool readAttention(napi_env env, napi_callback_info info, bool grad, Attention* at) {
  const char* usage = grad ? "attentionGrad(heap, qkv, bias, dy, stats, dqkv, batch, length, heads, size, biasStride, scale): 12 arguments"
                           : "attention(heap, qkv, bias, out, stats, batch, length, heads, size, biasStride, scale): 11 arguments";
  const std::size_t expected = grad ? 12 : 11;
  napi_value argv[12];
  std::size_t argc = 12;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < expected) return fail(env, usage), false;
  std::uint8_t* heap = nullptr;
  std::size_t heapBytes = 0;
  if (!heapOf(env, argv[0], &heap, &heapBytes) || heap == nullptr)
    return fail(env, "attention: heap must be an ArrayBuffer or a typed array over one (not detached)"), false;
  double bias = 0;
  if (napi_get_value_double(env, argv[2], &bias) != napi_ok) return fail(env, "attention: the bias offset must be a number (−1: none)"), false;
  const int arrays = grad ? 5 : 4;  // qkv, bias, out, stats | qkv, bias, dy, stats, dqkv
  double offsets[5] = {0, 0, 0, 0, 0};
  double dims[5];
  if (!wholeNumbers(env, argv, 1, 1, offsets) || !wholeNumbers(env, argv, 3, arrays - 2, offsets + 2) ||
      !wholeNumbers(env, argv, arrays + 1, 5, dims))
    return fail(env, "attention: offsets, sizes and the bias stride must be non-negative integers"), false;
  double scale = 0;
  if (napi_get_value_double(env, argv[arrays + 6], &scale) != napi_ok) return fail(env, "attention: scale must be a number"), false;
  const double batch = dims[0], length = dims[1], heads = dims[2], size = dims[3], biasStride = dims[4];
  if (length > 1e6 || heads * size > 1e6) return fail(env, "attention: length or width too large"), false;
  const double rows = batch * length, d = heads * size;
  // Each array's floats: qkv, (bias), out or dy, stats, dqkv.
  const double qkvFloats = rows * 3 * d, outFloats = rows * d, statFloats = batch * heads * length * 2;
  const bool hasBias = bias >= 0;
  const double biasFloats = hasBias ? (batch - 1) * biasStride + length * length : 0;
  if (hasBias && bias != static_cast<double>(static_cast<std::int64_t>(bias))) return fail(env, "attention: the bias offset must be an integer"), false;
  const double ends[5] = {offsets[0] + 4 * qkvFloats, hasBias ? bias + 4 * biasFloats : 0, offsets[2] + 4 * outFloats, offsets[3] + 4 * statFloats,
                          grad ? offsets[4] + 4 * qkvFloats : 0};
  for (double end : ends)
    if (end > static_cast<double>(heapBytes)) return fail(env, "attention: array outside the heap"), false;
  for (double offset : {offsets[0], hasBias ? bias : 0.0, offsets[2], offsets[3], offsets[4]})
    if (static_cast<std::int64_t>(offset) % 4) return fail(env, "attention: offsets must be 4-byte aligned"), false;
  auto floats = [&](double offset) { return reinterpret_cast<float*>(heap + static_cast<std::size_t>(offset)); };
  at->qkv = floats(offsets[0]);
  at->bias = hasBias ? floats(bias) : nullptr;
  at->hasBias = hasBias;
  at->biasStride = static_cast<std::ptrdiff_t>(biasStride);
  at->out = grad ? nullptr : floats(offsets[2]);
  at->dy = grad ? floats(offsets[2]) : nullptr;
  at->stats = floats(offsets[3]);
  at->dqkv = grad ? floats(offsets[4]) : nullptr;
  at->batch = static_cast<int>(batch);
  at->length = static_cast<int>(length);
  at->heads = static_cast<int>(heads);
  at->size = static_cast<int>(size);
  at->scale = static_cast<float>(scale);
  return true;
}

napi_value boolean(napi_env env, bool value) {
  napi_value result = nullptr;
  napi_get_boolean(env, value, &result);
  return result;
}

}  // namespace

napi_value FusedAttention(napi_env env, napi_callback_info info) {
  Attention at;
  if (!readAttention(env, info, false, &at)) return nullptr;
  const int isa = currentIsa();
  if (isa == kPortable) return boolean(env, false);
  if (at.batch == 0 || at.length == 0) return boolean(env, true);
  const std::size_t length = static_cast<std::size_t>(at.length);
  scratchFloats.resize(2 * length * static_cast<std::size_t>(at.size) + 4 * length);
  scratchInts.resize(length);
#if defined(SACCADE_X86)
  if (isa == kAvx512) avx512::forward(at, scratchFloats.data(), scratchInts.data());
  else avx2::forward(at, scratchFloats.data(), scratchInts.data());
#endif
  return boolean(env, true);
}

napi_value FusedAttentionGrad(napi_env env, napi_callback_info info) {
  Attention at;
  if (!readAttention(env, info, true, &at)) return nullptr;
  const int isa = currentIsa();
  if (isa == kPortable) return boolean(env, false);
  if (at.batch == 0 || at.length == 0) return boolean(env, true);
  const std::size_t length = static_cast<std::size_t>(at.length);
  scratchFloats.resize(3 * length * static_cast<std::size_t>(at.size) + 2 * length * length);
  scratchInts.resize(length + 2 * ((length + 3) / 4));
#if defined(SACCADE_X86)
  if (isa == kAvx512) avx512::backward(at, scratchFloats.data(), scratchInts.data());
  else avx2::backward(at, scratchFloats.data(), scratchInts.data());
#endif
  return boolean(env, true);
}

}  // namespace saccade
