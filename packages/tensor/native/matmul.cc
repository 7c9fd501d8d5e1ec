// Saccade's native product for the tfjs wasm backend (kernels/native-matmul.ts).
//
// batchMatMul(heap, a, b, c, batch, m, k, n, transposeA, transposeB, strideA, strideB) computes,
// in place on the wasm backend's heap (an ArrayBuffer, or a typed array over it), what the
// AssemblyScript `batchMatMul` of assembly/simd-kernels.ts computes:
//
//   for item in [0, batch): C[item] = op(A[item]) · op(B[item])
//
// where a, b, c are byte offsets into the heap; A[item] starts at a + 4·item·strideA and is
// [m, k] row-major, or [k, m] when transposeA; B[item] starts at b + 4·item·strideB and is [k, n],
// or [n, k] when transposeB; a stride of 0 broadcasts one item to the whole batch; C is contiguous
// [batch, m, n]. float32 throughout; no scratch on the heap (packing buffers are this thread's).
//
// The floats. In the default, exact mode every C(i, j) is 0 + A(i,0)·B(0,j) + A(i,1)·B(1,j) + …
// added in order of p, each product and each sum rounded to float32: the order and the roundings
// of the wasm SIMD kernel and of XNNPACK's wasm kernels, so the native route gives the wasm
// route's floats bit for bit, on every instruction set below. Depth blocks carry the running sum
// in C (the next block's accumulators start from it), which keeps that order. In fused mode each
// step is one fused multiply-add (one rounding): faster, same floats on every instruction set
// here, but not the wasm route's.
//
// GotoBLAS-style blocking: B is packed into NR-wide panels of KC rows, A into MR-tall panels, and
// a register-blocked micro-kernel accumulates each MR×NR tile of C: AVX-512 8×32, AVX 6×16, or a
// portable 4×8. The instruction set is chosen when the addon loads, from what the CPU supports
// (cpuid), not when it is compiled: the file is built for baseline x86-64 with each kernel
// compiled for its own target, so a built addon moves between machines. Single-threaded: the
// callers parallelise with worker threads, each of which loads this addon (NAPI_MODULE_INIT makes
// it context-aware) and gets its own buffers and settings.
//
// Built by scripts/build-native.mjs with g++ -O3 -ffp-contract=off (no contraction of a product
// and a sum into a fused multiply-add behind the exact mode's back).
#include "addon.h"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

using namespace saccade;

constexpr int KC = 256;
constexpr int MC = 96;    // multiple of every MR below (8, 6, 4)
constexpr int NC = 2048;  // multiple of every NR below (32, 16, 8)

// A strided view: element (i, p) of op(A) lives at base[i * rs + p * cs].
struct View {
  const float* base;
  std::ptrdiff_t rs;
  std::ptrdiff_t cs;
};

// This thread's packing buffers, 64-byte aligned, grown on demand, never shrunk.
struct Buffer {
  float* data = nullptr;
  std::size_t size = 0;
  ~Buffer() { std::free(data); }
  float* get(std::size_t floats) {
    if (floats > size) {
      std::free(data);
      std::size_t bytes = ((floats * sizeof(float)) + 63) & ~static_cast<std::size_t>(63);
      data = static_cast<float*>(std::aligned_alloc(64, bytes));
      size = data ? floats : 0;
    }
    return data;
  }
};

// Diagnostics (stats()): products run by the whole process, and how many threads ran any.
std::atomic<std::uint64_t> callCount{0};
std::atomic<std::uint32_t> threadCount{0};
thread_local bool threadCounted = false;

thread_local Buffer packedA;
thread_local Buffer packedB;

// Packs op(A)[i0 : i0+mc, p0 : p0+kc] into ceil(mc/MR) panels of [kc][MR], zero-padded rows.
template <int MR>
void packA(const View& a, int i0, int mc, int p0, int kc, float* out) {
  for (int ir = 0; ir < mc; ir += MR) {
    const int rows = mc - ir < MR ? mc - ir : MR;
    const float* src = a.base + (i0 + ir) * a.rs + p0 * a.cs;
    if (a.cs == 1) {
      // Rows contiguous in p: read each row, scatter into the panel.
      for (int r = 0; r < rows; r++) {
        const float* row = src + r * a.rs;
        for (int p = 0; p < kc; p++) out[p * MR + r] = row[p];
      }
      for (int r = rows; r < MR; r++)
        for (int p = 0; p < kc; p++) out[p * MR + r] = 0.0f;
    } else {
      // Transposed A ([k, m]): the MR rows of one p are contiguous.
      for (int p = 0; p < kc; p++) {
        const float* col = src + p * a.cs;
        float* dst = out + p * MR;
        int r = 0;
        for (; r < rows; r++) dst[r] = col[r * a.rs];
        for (; r < MR; r++) dst[r] = 0.0f;
      }
    }
    out += static_cast<std::size_t>(kc) * MR;
  }
}

// Packs op(B)[p0 : p0+kc, j0 : j0+nc] into ceil(nc/NR) panels of [kc][NR], zero-padded columns.
template <int NR>
void packB(const View& b, int p0, int kc, int j0, int nc, float* out) {
  for (int jr = 0; jr < nc; jr += NR) {
    const int cols = nc - jr < NR ? nc - jr : NR;
    const float* src = b.base + p0 * b.rs + (j0 + jr) * b.cs;
    if (b.cs == 1) {
      for (int p = 0; p < kc; p++) {
        const float* row = src + p * b.rs;
        float* dst = out + p * NR;
        if (cols == NR) {
          std::memcpy(dst, row, NR * sizeof(float));
        } else {
          int j = 0;
          for (; j < cols; j++) dst[j] = row[j];
          for (; j < NR; j++) dst[j] = 0.0f;
        }
      }
    } else {
      // Transposed B ([n, k]): each column j is contiguous in p.
      for (int j = 0; j < cols; j++) {
        const float* col = src + j * b.cs;
        for (int p = 0; p < kc; p++) out[p * NR + j] = col[p * b.rs];
      }
      for (int j = cols; j < NR; j++)
        for (int p = 0; p < kc; p++) out[p * NR + j] = 0.0f;
    }
    out += static_cast<std::size_t>(kc) * NR;
  }
}

// A micro-kernel: C[0:mr, 0:nr] (row stride ldc) = (first ? 0 : C) + Ap · Bp over kc, where Ap is
// [kc][MR] and Bp [kc][NR]; only rows < mr and columns < nr of C are read or written.
using MicroKernel = void (*)(int kc, const float* ap, const float* bp, float* c, std::ptrdiff_t ldc, bool first, int mr, int nr);

// Copies the valid part of a C tile into a full MR×NR tile (zeros elsewhere), and back.
template <int MR, int NR>
inline void loadTile(float* tile, const float* c, std::ptrdiff_t ldc, int mr, int nr) {
  for (int r = 0; r < MR; r++)
    for (int j = 0; j < NR; j++) tile[r * NR + j] = r < mr && j < nr ? c[r * ldc + j] : 0.0f;
}
template <int MR, int NR>
inline void storeTile(const float* tile, float* c, std::ptrdiff_t ldc, int mr, int nr) {
  for (int r = 0; r < mr; r++)
    for (int j = 0; j < nr; j++) c[r * ldc + j] = tile[r * NR + j];
}

// Portable kernel (any CPU): 4×8, plain C++; the compiler may vectorise across columns, which
// keeps each element's order of additions.
template <bool Fused>
void portableKernel(int kc, const float* ap, const float* bp, float* c, std::ptrdiff_t ldc, bool first, int mr, int nr) {
  constexpr int MR = 4, NR = 8;
  float tile[MR * NR];
  if (first)
    for (float& x : tile) x = 0.0f;
  else
    loadTile<MR, NR>(tile, c, ldc, mr, nr);
  for (int p = 0; p < kc; p++) {
    for (int r = 0; r < MR; r++) {
      const float av = ap[r];
      for (int j = 0; j < NR; j++) {
        float& acc = tile[r * NR + j];
        if constexpr (Fused)
          acc = std::fma(av, bp[j], acc);
        else
          acc = acc + av * bp[j];
      }
    }
    ap += MR;
    bp += NR;
  }
  storeTile<MR, NR>(tile, c, ldc, mr, nr);
}

#if defined(SACCADE_X86)

// AVX (+FMA for the fused mode): 6×16, twelve 8-lane accumulators.
template <bool Fused>
__attribute__((target("avx,fma"))) void avxKernel(int kc, const float* ap, const float* bp, float* c, std::ptrdiff_t ldc,
                                                  bool first, int mr, int nr) {
  constexpr int MR = 6, NR = 16;
  const bool full = mr == MR && nr == NR;
  alignas(32) float tile[MR * NR];
  __m256 c0[MR], c1[MR];
  if (first) {
    for (int r = 0; r < MR; r++) c0[r] = c1[r] = _mm256_setzero_ps();
  } else if (full) {
    for (int r = 0; r < MR; r++) {
      c0[r] = _mm256_loadu_ps(c + r * ldc);
      c1[r] = _mm256_loadu_ps(c + r * ldc + 8);
    }
  } else {
    loadTile<MR, NR>(tile, c, ldc, mr, nr);
    for (int r = 0; r < MR; r++) {
      c0[r] = _mm256_load_ps(tile + r * NR);
      c1[r] = _mm256_load_ps(tile + r * NR + 8);
    }
  }
  for (int p = 0; p < kc; p++) {
    const __m256 b0 = _mm256_load_ps(bp);
    const __m256 b1 = _mm256_load_ps(bp + 8);
#pragma GCC unroll 6
    for (int r = 0; r < MR; r++) {
      const __m256 av = _mm256_broadcast_ss(ap + r);
      if constexpr (Fused) {
        c0[r] = _mm256_fmadd_ps(av, b0, c0[r]);
        c1[r] = _mm256_fmadd_ps(av, b1, c1[r]);
      } else {
        c0[r] = _mm256_add_ps(c0[r], _mm256_mul_ps(av, b0));
        c1[r] = _mm256_add_ps(c1[r], _mm256_mul_ps(av, b1));
      }
    }
    ap += MR;
    bp += NR;
  }
  if (full) {
    for (int r = 0; r < MR; r++) {
      _mm256_storeu_ps(c + r * ldc, c0[r]);
      _mm256_storeu_ps(c + r * ldc + 8, c1[r]);
    }
    return;
  }
  for (int r = 0; r < MR; r++) {
    _mm256_store_ps(tile + r * NR, c0[r]);
    _mm256_store_ps(tile + r * NR + 8, c1[r]);
  }
  storeTile<MR, NR>(tile, c, ldc, mr, nr);
}

// AVX-512: 8×32, sixteen 16-lane accumulators; edge tiles by masked loads and stores.
template <bool Fused>
__attribute__((target("avx512f"))) void avx512Kernel(int kc, const float* ap, const float* bp, float* c, std::ptrdiff_t ldc,
                                                     bool first, int mr, int nr) {
  constexpr int MR = 8;
  const int n0 = nr < 16 ? nr : 16;
  const int n1 = nr - n0;
  const __mmask16 m0 = static_cast<__mmask16>(n0 >= 16 ? 0xffffu : ((1u << n0) - 1u));
  const __mmask16 m1 = static_cast<__mmask16>(n1 >= 16 ? 0xffffu : ((1u << n1) - 1u));
  __m512 c0[MR], c1[MR];
#pragma GCC unroll 8
  for (int r = 0; r < MR; r++) {
    if (first || r >= mr) {
      c0[r] = c1[r] = _mm512_setzero_ps();
    } else {
      c0[r] = _mm512_maskz_loadu_ps(m0, c + r * ldc);
      c1[r] = _mm512_maskz_loadu_ps(m1, c + r * ldc + 16);
    }
  }
  for (int p = 0; p < kc; p++) {
    const __m512 b0 = _mm512_load_ps(bp);
    const __m512 b1 = _mm512_load_ps(bp + 16);
#pragma GCC unroll 8
    for (int r = 0; r < MR; r++) {
      const __m512 av = _mm512_set1_ps(ap[r]);
      if constexpr (Fused) {
        c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
        c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
      } else {
        c0[r] = _mm512_add_ps(c0[r], _mm512_mul_ps(av, b0));
        c1[r] = _mm512_add_ps(c1[r], _mm512_mul_ps(av, b1));
      }
    }
    ap += MR;
    bp += 32;
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; r++) {
    if (r >= mr) break;
    _mm512_mask_storeu_ps(c + r * ldc, m0, c0[r]);
    if (n1 > 0) _mm512_mask_storeu_ps(c + r * ldc + 16, m1, c1[r]);
  }
}

#endif

// C[m, n] = op(A) · op(B), C contiguous. Returns false when a packing buffer cannot be allocated.
template <int MR, int NR>
bool gemm(MicroKernel kernel, const View& a, const View& b, float* c, int m, int k, int n) {
  const int ncMax = n < NC ? n : NC;
  const int kcMax = k < KC ? k : KC;
  const int mcMax = m < MC ? m : MC;
  float* bp = packedB.get(static_cast<std::size_t>((ncMax + NR - 1) / NR) * NR * kcMax);
  float* ap = packedA.get(static_cast<std::size_t>((mcMax + MR - 1) / MR) * MR * kcMax);
  if (!bp || !ap) return false;
  for (int j0 = 0; j0 < n; j0 += NC) {
    const int nc = n - j0 < NC ? n - j0 : NC;
    for (int p0 = 0; p0 < k; p0 += KC) {
      const int kc = k - p0 < KC ? k - p0 : KC;
      const bool first = p0 == 0;
      packB<NR>(b, p0, kc, j0, nc, bp);
      for (int i0 = 0; i0 < m; i0 += MC) {
        const int mc = m - i0 < MC ? m - i0 : MC;
        packA<MR>(a, i0, mc, p0, kc, ap);
        for (int jr = 0; jr < nc; jr += NR) {
          const int nr = nc - jr < NR ? nc - jr : NR;
          const float* bPanel = bp + static_cast<std::size_t>(jr / NR) * NR * kc;
          for (int ir = 0; ir < mc; ir += MR) {
            const int mr = mc - ir < MR ? mc - ir : MR;
            const float* aPanel = ap + static_cast<std::size_t>(ir / MR) * MR * kc;
            float* cTile = c + static_cast<std::ptrdiff_t>(i0 + ir) * n + j0 + jr;
            kernel(kc, aPanel, bPanel, cTile, n, first, mr, nr);
          }
        }
      }
    }
  }
  return true;
}

bool run(const View& a, const View& b, float* c, int m, int k, int n) {
  switch (currentIsa()) {
#if defined(SACCADE_X86)
    case kAvx512:
      return gemm<8, 32>(threadFused ? avx512Kernel<true> : avx512Kernel<false>, a, b, c, m, k, n);
    case kAvx:
      return gemm<6, 16>(threadFused ? avxKernel<true> : avxKernel<false>, a, b, c, m, k, n);
#endif
    default:
      return gemm<4, 8>(threadFused ? portableKernel<true> : portableKernel<false>, a, b, c, m, k, n);
  }
}

napi_value BatchMatMul(napi_env env, napi_callback_info info) {
  std::size_t argc = 12;
  napi_value argv[12];
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok) return fail(env, "batchMatMul: bad call");
  if (argc < 12) return fail(env, "batchMatMul(heap, a, b, c, batch, m, k, n, transposeA, transposeB, strideA, strideB): 12 arguments");
  std::uint8_t* heap = nullptr;
  std::size_t heapBytes = 0;
  if (!heapOf(env, argv[0], &heap, &heapBytes) || heap == nullptr)
    return fail(env, "batchMatMul: heap must be an ArrayBuffer or a typed array over one (not detached)");
  double num[7];
  const int numIndex[7] = {1, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < 7; i++)
    if (napi_get_value_double(env, argv[numIndex[i]], &num[i]) != napi_ok) return fail(env, "batchMatMul: offsets and sizes must be numbers");
  bool transposeA = false, transposeB = false;
  for (int i = 0; i < 2; i++) {
    napi_value v;
    if (napi_coerce_to_bool(env, argv[8 + i], &v) != napi_ok) return fail(env, "batchMatMul: bad transpose flag");
    napi_get_value_bool(env, v, i == 0 ? &transposeA : &transposeB);
  }
  double strideA = 0, strideB = 0;
  if (napi_get_value_double(env, argv[10], &strideA) != napi_ok || napi_get_value_double(env, argv[11], &strideB) != napi_ok)
    return fail(env, "batchMatMul: strides must be numbers");
  const double aOff = num[0], bOff = num[1], cOff = num[2];
  const double batch = num[3], m = num[4], k = num[5], n = num[6];
  for (double v : {aOff, bOff, cOff, batch, m, k, n, strideA, strideB})
    if (!(v >= 0) || v != static_cast<double>(static_cast<std::int64_t>(v)) || v > 9.0e15)
      return fail(env, "batchMatMul: offsets, sizes and strides must be non-negative integers");
  if (m > 2147483647.0 || k > 2147483647.0 || n > 2147483647.0) return fail(env, "batchMatMul: dimension too large");
  if (batch == 0 || m == 0 || n == 0) return nullptr;
  const double heapSize = static_cast<double>(heapBytes);
  // Bounds: the last item of each operand must end inside the heap.
  const double aEnd = aOff + 4.0 * ((batch - 1) * strideA + m * k);
  const double bEnd = bOff + 4.0 * ((batch - 1) * strideB + k * n);
  const double cEnd = cOff + 4.0 * batch * m * n;
  if (aEnd > heapSize || bEnd > heapSize || cEnd > heapSize) return fail(env, "batchMatMul: operand outside the heap");
  if (static_cast<std::int64_t>(aOff) % 4 || static_cast<std::int64_t>(bOff) % 4 || static_cast<std::int64_t>(cOff) % 4)
    return fail(env, "batchMatMul: offsets must be 4-byte aligned");

  callCount.fetch_add(1, std::memory_order_relaxed);
  if (!threadCounted) {
    threadCounted = true;
    threadCount.fetch_add(1, std::memory_order_relaxed);
  }
  const int M = static_cast<int>(m), K = static_cast<int>(k), N = static_cast<int>(n);
  const auto items = static_cast<std::int64_t>(batch);
  float* c = reinterpret_cast<float*>(heap + static_cast<std::size_t>(cOff));
  if (K == 0) {
    std::memset(c, 0, static_cast<std::size_t>(items) * M * N * sizeof(float));
    return nullptr;
  }
  for (std::int64_t item = 0; item < items; item++) {
    const float* aItem = reinterpret_cast<const float*>(heap + static_cast<std::size_t>(aOff)) + item * static_cast<std::int64_t>(strideA);
    const float* bItem = reinterpret_cast<const float*>(heap + static_cast<std::size_t>(bOff)) + item * static_cast<std::int64_t>(strideB);
    // op(A)(i, p): A is [m, k] → i*k + p; transposed A is [k, m] → p*m + i.
    const View av{aItem, transposeA ? 1 : K, transposeA ? M : 1};
    // op(B)(p, j): B is [k, n] → p*n + j; transposed B is [n, k] → j*k + p.
    const View bv{bItem, transposeB ? 1 : N, transposeB ? K : 1};
    if (!run(av, bv, c + item * static_cast<std::int64_t>(M) * N, M, K, N)) return fail(env, "batchMatMul: out of memory for packing buffers");
  }
  return nullptr;
}

napi_value stringValue(napi_env env, const char* text) {
  napi_value value = nullptr;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &value);
  return value;
}

// configure(isa?: string, fused?: boolean): this thread's instruction set (one of isas(); the best
// the CPU supports when omitted or empty) and mode. Throws on an instruction set this CPU lacks.
napi_value Configure(napi_env env, napi_callback_info info) {
  std::size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok) return fail(env, "configure: bad call");
  int isa = bestIsa();
  if (argc >= 1) {
    napi_valuetype type;
    napi_typeof(env, argv[0], &type);
    if (type == napi_string) {
      char name[32] = {0};
      std::size_t length = 0;
      napi_get_value_string_utf8(env, argv[0], name, sizeof(name), &length);
      if (length > 0) {
        isa = -1;
        for (int i = 0; i < 3; i++)
          if (std::strcmp(name, kIsaNames[i]) == 0) isa = i;
        if (isa < 0) return fail(env, "configure: instruction set must be avx512f, avx2 or portable");
        if (!supported(isa)) return fail(env, "configure: this CPU does not support that instruction set");
      }
    } else if (type != napi_undefined && type != napi_null) {
      return fail(env, "configure: instruction set must be a string");
    }
  }
  bool fused = false;
  if (argc >= 2) {
    napi_value v;
    if (napi_coerce_to_bool(env, argv[1], &v) != napi_ok) return fail(env, "configure: bad fused flag");
    napi_get_value_bool(env, v, &fused);
  }
  threadIsa = isa;
  threadFused = fused;
  return stringValue(env, kIsaNames[isa]);
}

// settings(): { isa, fused, isas } for this thread; isas lists what this CPU supports, best first.
napi_value Settings(napi_env env, napi_callback_info) {
  currentIsa();
  napi_value result, fused, isas;
  if (napi_create_object(env, &result) != napi_ok) return nullptr;
  napi_set_named_property(env, result, "isa", stringValue(env, kIsaNames[threadIsa]));
  napi_get_boolean(env, threadFused, &fused);
  napi_set_named_property(env, result, "fused", fused);
  napi_create_array(env, &isas);
  std::uint32_t count = 0;
  for (int isa : {kAvx512, kAvx, kPortable})
    if (supported(isa)) napi_set_element(env, isas, count++, stringValue(env, kIsaNames[isa]));
  napi_set_named_property(env, result, "isas", isas);
  return result;
}

// stats(): { calls, threads } over the whole process (every thread's products), to check that
// worker threads took the native route.
napi_value Stats(napi_env env, napi_callback_info) {
  napi_value result, calls, threads;
  if (napi_create_object(env, &result) != napi_ok) return nullptr;
  napi_create_double(env, static_cast<double>(callCount.load()), &calls);
  napi_create_uint32(env, threadCount.load(), &threads);
  napi_set_named_property(env, result, "calls", calls);
  napi_set_named_property(env, result, "threads", threads);
  return result;
}

bool exportFunction(napi_env env, napi_value exports, const char* name, napi_callback callback) {
  napi_value fn;
  if (napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn) != napi_ok) return false;
  return napi_set_named_property(env, exports, name, fn) == napi_ok;
}

}  // namespace

NAPI_MODULE_INIT() {
  if (!exportFunction(env, exports, "batchMatMul", BatchMatMul) || !exportFunction(env, exports, "configure", Configure) ||
      !exportFunction(env, exports, "settings", Settings) || !exportFunction(env, exports, "stats", Stats) ||
      !exportFunction(env, exports, "gelu", Gelu) || !exportFunction(env, exports, "geluGrad", GeluGrad) ||
      !exportFunction(env, exports, "attention", FusedAttention) || !exportFunction(env, exports, "attentionGrad", FusedAttentionGrad))
    return nullptr;
  return exports;
}
