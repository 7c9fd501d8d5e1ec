// Batched float32 matrix products with wasm SIMD (f32x4), compiled by AssemblyScript's `asc` at
// the package's build (scripts/build-wasm.mjs). The module imports the tfjs wasm backend's
// memory and has no data segment, no globals that touch memory and no start function: it only
// reads and writes the byte offsets it is given (tensors on the backend's heap).
//
// C[item] = op(A[item]) · op(B[item]), row-major, C contiguous [batch, m, n].
// op(A) is [m, k]: A stored [m, k], or [k, m] when transposeA. op(B) is [k, n]: B stored [k, n],
// or [n, k] when transposeB (then each item's B is first transposed into `scratch`, k·n floats).
// A batch stride of 0 broadcasts that operand over the batch.

// Register block: 4 rows × 8 columns (8 f32x4 accumulators), with 4- and 1-column and 1-row tails.

@inline function splat(address: usize): v128 {
  return f32x4.splat(load<f32>(address));
}

/** 4 rows × 8 columns at (row address step `aRow`, depth step `aDepth`) of A and column j of B. */
@inline function block4x8(a: usize, aRow: usize, aDepth: usize, b: usize, bRow: usize, c: usize, cRow: usize, k: i32, acc: bool): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0);
  let c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0);
  let c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  if (acc) {
    c00 = v128.load(c);
    c01 = v128.load(c, 16);
    c10 = v128.load(c + cRow);
    c11 = v128.load(c + cRow, 16);
    c20 = v128.load(c + 2 * cRow);
    c21 = v128.load(c + 2 * cRow, 16);
    c30 = v128.load(c + 3 * cRow);
    c31 = v128.load(c + 3 * cRow, 16);
  }
  for (let p = 0; p < k; p++) {
    const b0 = v128.load(b);
    const b1 = v128.load(b, 16);
    let x = splat(a);
    c00 = f32x4.add(c00, f32x4.mul(x, b0));
    c01 = f32x4.add(c01, f32x4.mul(x, b1));
    x = splat(a + aRow);
    c10 = f32x4.add(c10, f32x4.mul(x, b0));
    c11 = f32x4.add(c11, f32x4.mul(x, b1));
    x = splat(a + 2 * aRow);
    c20 = f32x4.add(c20, f32x4.mul(x, b0));
    c21 = f32x4.add(c21, f32x4.mul(x, b1));
    x = splat(a + 3 * aRow);
    c30 = f32x4.add(c30, f32x4.mul(x, b0));
    c31 = f32x4.add(c31, f32x4.mul(x, b1));
    a += aDepth;
    b += bRow;
  }
  v128.store(c, c00);
  v128.store(c, c01, 16);
  c += cRow;
  v128.store(c, c10);
  v128.store(c, c11, 16);
  c += cRow;
  v128.store(c, c20);
  v128.store(c, c21, 16);
  c += cRow;
  v128.store(c, c30);
  v128.store(c, c31, 16);
}

@inline function block4x4(a: usize, aRow: usize, aDepth: usize, b: usize, bRow: usize, c: usize, cRow: usize, k: i32, acc: bool): void {
  let c0 = f32x4.splat(0), c1 = f32x4.splat(0), c2 = f32x4.splat(0), c3 = f32x4.splat(0);
  if (acc) {
    c0 = v128.load(c);
    c1 = v128.load(c + cRow);
    c2 = v128.load(c + 2 * cRow);
    c3 = v128.load(c + 3 * cRow);
  }
  for (let p = 0; p < k; p++) {
    const b0 = v128.load(b);
    c0 = f32x4.add(c0, f32x4.mul(splat(a), b0));
    c1 = f32x4.add(c1, f32x4.mul(splat(a + aRow), b0));
    c2 = f32x4.add(c2, f32x4.mul(splat(a + 2 * aRow), b0));
    c3 = f32x4.add(c3, f32x4.mul(splat(a + 3 * aRow), b0));
    a += aDepth;
    b += bRow;
  }
  v128.store(c, c0);
  v128.store(c + cRow, c1);
  v128.store(c + 2 * cRow, c2);
  v128.store(c + 3 * cRow, c3);
}

@inline function block4x1(a: usize, aRow: usize, aDepth: usize, b: usize, bRow: usize, c: usize, cRow: usize, k: i32, acc: bool): void {
  let c0: f32 = 0, c1: f32 = 0, c2: f32 = 0, c3: f32 = 0;
  if (acc) {
    c0 = load<f32>(c);
    c1 = load<f32>(c + cRow);
    c2 = load<f32>(c + 2 * cRow);
    c3 = load<f32>(c + 3 * cRow);
  }
  for (let p = 0; p < k; p++) {
    const x = load<f32>(b);
    c0 += load<f32>(a) * x;
    c1 += load<f32>(a + aRow) * x;
    c2 += load<f32>(a + 2 * aRow) * x;
    c3 += load<f32>(a + 3 * aRow) * x;
    a += aDepth;
    b += bRow;
  }
  store<f32>(c, c0);
  store<f32>(c + cRow, c1);
  store<f32>(c + 2 * cRow, c2);
  store<f32>(c + 3 * cRow, c3);
}

@inline function block1x8(a: usize, aDepth: usize, b: usize, bRow: usize, c: usize, k: i32, acc: bool): void {
  let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
  if (acc) {
    c0 = v128.load(c);
    c1 = v128.load(c, 16);
  }
  for (let p = 0; p < k; p++) {
    const x = splat(a);
    c0 = f32x4.add(c0, f32x4.mul(x, v128.load(b)));
    c1 = f32x4.add(c1, f32x4.mul(x, v128.load(b, 16)));
    a += aDepth;
    b += bRow;
  }
  v128.store(c, c0);
  v128.store(c, c1, 16);
}

@inline function block1x4(a: usize, aDepth: usize, b: usize, bRow: usize, c: usize, k: i32, acc: bool): void {
  let c0 = f32x4.splat(0);
  if (acc) c0 = v128.load(c);
  for (let p = 0; p < k; p++) {
    c0 = f32x4.add(c0, f32x4.mul(splat(a), v128.load(b)));
    a += aDepth;
    b += bRow;
  }
  v128.store(c, c0);
}

@inline function block1x1(a: usize, aDepth: usize, b: usize, bRow: usize, c: usize, k: i32, acc: bool): void {
  let c0: f32 = 0;
  if (acc) c0 = load<f32>(c);
  for (let p = 0; p < k; p++) {
    c0 += load<f32>(a) * load<f32>(b);
    a += aDepth;
    b += bRow;
  }
  store<f32>(c, c0);
}

// Depth block: a long inner dimension (k > 256: weight gradients, k = rows of the batch) is cut into
// blocks so that the slices of A and B in use stay in cache; every block after the first adds to
// C. Each output still adds its products in order of p, so blocking does not change the floats.
const depthBlock = 64;

/**
 * One product: A element (i, p) at a + i·aRow + p·aDepth (bytes); B [k, n] and C [m, n]
 * row-major, over depths [p0, p0 + depth), adding to C when `acc`.
 */
function productBlock(a: usize, aRow: usize, aDepth: usize, b: usize, c: usize, m: i32, depth: i32, n: i32, acc: bool): void {
  stridedProduct(a, aRow, aDepth, b, <usize>n << 2, c, <usize>n << 2, m, depth, n, acc);
}

/**
 * C = op(A)·B, A element (i, p) at a + i·aRow + p·aDepth, B row p at b + p·bRow, C row i at
 * c + i·cRow (bytes), adding to C when `acc`: rows of B and C may be strided (attention reads
 * its heads in place in the fused q | k | v rows).
 */
function stridedProduct(a: usize, aRow: usize, aDepth: usize, b: usize, bRow: usize, c: usize, cRow: usize, m: i32, k: i32, n: i32, acc: bool): void {
  let j = 0;
  // Column panels of B outermost: a k × 8 panel stays in L1 while every row block streams past.
  for (; j + 8 <= n; j += 8) {
    const bj = b + (<usize>j << 2);
    const cj = c + (<usize>j << 2);
    let i = 0;
    for (; i + 4 <= m; i += 4) block4x8(a + <usize>i * aRow, aRow, aDepth, bj, bRow, cj + <usize>i * cRow, cRow, k, acc);
    for (; i < m; i++) block1x8(a + <usize>i * aRow, aDepth, bj, bRow, cj + <usize>i * cRow, k, acc);
  }
  if (j + 4 <= n) {
    const bj = b + (<usize>j << 2);
    const cj = c + (<usize>j << 2);
    let i = 0;
    for (; i + 4 <= m; i += 4) block4x4(a + <usize>i * aRow, aRow, aDepth, bj, bRow, cj + <usize>i * cRow, cRow, k, acc);
    for (; i < m; i++) block1x4(a + <usize>i * aRow, aDepth, bj, bRow, cj + <usize>i * cRow, k, acc);
    j += 4;
  }
  for (; j < n; j++) {
    const bj = b + (<usize>j << 2);
    const cj = c + (<usize>j << 2);
    let i = 0;
    for (; i + 4 <= m; i += 4) block4x1(a + <usize>i * aRow, aRow, aDepth, bj, bRow, cj + <usize>i * cRow, cRow, k, acc);
    for (; i < m; i++) block1x1(a + <usize>i * aRow, aDepth, bj, bRow, cj + <usize>i * cRow, k, acc);
  }
}

/** One product over the whole depth k, in depth blocks when k is long. */
function product(a: usize, aRow: usize, aDepth: usize, b: usize, c: usize, m: i32, k: i32, n: i32): void {
  // Attention's depths (head width, sequence length) fit in cache whole: blocking them only adds
  // passes over C (measured: PV with k = 148 was ~5% slower in blocks).
  if (k <= 4 * depthBlock) {
    productBlock(a, aRow, aDepth, b, c, m, k, n, false);
    return;
  }
  const bRow = <usize>n << 2;
  for (let p0 = 0; p0 < k; p0 += depthBlock) {
    const depth = min(depthBlock, k - p0);
    productBlock(a + <usize>p0 * aDepth, aRow, aDepth, b + <usize>p0 * bRow, c, m, depth, n, p0 > 0);
  }
}

/** scratch [k, n] = source [n, k] transposed. */
function transposeInto(source: usize, scratch: usize, n: i32, k: i32): void {
  for (let j = 0; j < n; j++) {
    const row = source + ((<usize>j * <usize>k) << 2);
    let target = scratch + (<usize>j << 2);
    const step = <usize>n << 2;
    for (let p = 0; p < k; p++) {
      store<f32>(target, load<f32>(row + (<usize>p << 2)));
      target += step;
    }
  }
}

/**
 * The batched product (see the top of the file). Strides are in elements; `scratch` is k·n floats
 * when transposeB (unused otherwise).
 */
export function batchMatMul(
  a: usize,
  b: usize,
  c: usize,
  batch: i32,
  m: i32,
  k: i32,
  n: i32,
  aBatchStride: i32,
  bBatchStride: i32,
  transposeA: bool,
  transposeB: bool,
  scratch: usize,
): void {
  const aRow: usize = transposeA ? 4 : <usize>k << 2;
  const aDepth: usize = transposeA ? <usize>m << 2 : 4;
  const cStride = (<usize>m * <usize>n) << 2;
  for (let item = 0; item < batch; item++) {
    const aItem = a + ((<usize>item * <usize>aBatchStride) << 2);
    let bItem = b + ((<usize>item * <usize>bBatchStride) << 2);
    if (transposeB) {
      if (item === 0 || bBatchStride !== 0) transposeInto(bItem, scratch, n, k);
      bItem = scratch;
    }
    product(aItem, aRow, aDepth, bItem, c + <usize>item * cStride, m, k, n);
  }
}

/**
 * out[j] = Σ_i x[i, j] over a row-major [rows, cols] matrix (a sum over leading axes), adding the
 * rows in order from 0 in every column: the same order, so the same floats, as the stock kernel's
 * transpose-then-sum-each-row.
 */
export function sumRows(x: usize, out: usize, rows: i32, cols: i32): void {
  const row = <usize>cols << 2;
  let j = 0;
  for (; j + 16 <= cols; j += 16) {
    let s0 = f32x4.splat(0), s1 = f32x4.splat(0), s2 = f32x4.splat(0), s3 = f32x4.splat(0);
    let p = x + (<usize>j << 2);
    for (let i = 0; i < rows; i++) {
      s0 = f32x4.add(s0, v128.load(p));
      s1 = f32x4.add(s1, v128.load(p, 16));
      s2 = f32x4.add(s2, v128.load(p, 32));
      s3 = f32x4.add(s3, v128.load(p, 48));
      p += row;
    }
    const o = out + (<usize>j << 2);
    v128.store(o, s0);
    v128.store(o, s1, 16);
    v128.store(o, s2, 32);
    v128.store(o, s3, 48);
  }
  for (; j + 4 <= cols; j += 4) {
    let s0 = f32x4.splat(0);
    let p = x + (<usize>j << 2);
    for (let i = 0; i < rows; i++) {
      s0 = f32x4.add(s0, v128.load(p));
      p += row;
    }
    v128.store(out + (<usize>j << 2), s0);
  }
  for (; j < cols; j++) {
    let s: f32 = 0;
    let p = x + (<usize>j << 2);
    for (let i = 0; i < rows; i++) {
      s += load<f32>(p);
      p += row;
    }
    store<f32>(out + (<usize>j << 2), s);
  }
}

// tanh, four lanes at a time, as musl's tanhf and expm1f (the C library the tfjs wasm backend is
// built with) compute it: every branch is evaluated and the lane's branch selected, with the same
// float operations in the same order (wasm has no fused multiply-add to contract them into), so
// the results are the same floats as the stock Tanh kernel's.

@inline function f32s(bits: i32): v128 {
  return i32x4.splat(bits);
}

/** musl expm1f on lanes with |y| < 27·ln2 or finite y < 0 (the range tanhf calls it with). */
@inline function expm1Lanes(y: v128): v128 {
  const ln2Hi = f32s(0x3f317180);
  const ln2Lo = f32s(0x3717f7d1);
  const hx = v128.and(y, i32x4.splat(0x7fffffff));
  const negative = i32x4.lt_s(y, i32x4.splat(0));
  // Argument reduction (|y| > 0.5·ln2): k = ±1 below 1.5·ln2, else trunc(y/ln2 ± 0.5).
  const reduce = i32x4.gt_s(hx, i32x4.splat(0x3eb17218));
  const near = i32x4.lt_s(hx, i32x4.splat(0x3f851592));
  const half = v128.bitselect(f32x4.splat(-0.5), f32x4.splat(0.5), negative);
  const kFar = i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(f32s(0x3fb8aa3b), y), half));
  const kNear = v128.bitselect(i32x4.splat(-1), i32x4.splat(1), negative);
  const k = v128.and(v128.bitselect(kNear, kFar, near), reduce);
  const t = f32x4.convert_i32x4_s(k);
  const hi = f32x4.sub(y, f32x4.mul(t, ln2Hi));
  const lo = f32x4.mul(t, ln2Lo);
  const reduced = f32x4.sub(hi, lo);
  const x = v128.bitselect(reduced, y, reduce);
  const c = f32x4.sub(f32x4.sub(hi, reduced), lo);
  // x is in the primary range.
  const hfx = f32x4.mul(f32x4.splat(0.5), x);
  const hxs = f32x4.mul(x, hfx);
  const r1 = f32x4.add(f32x4.splat(1), f32x4.mul(hxs, f32x4.add(f32s(0xbd088868), f32x4.mul(hxs, f32s(0x3acf3010)))));
  const t3 = f32x4.sub(f32x4.splat(3), f32x4.mul(r1, hfx));
  let e = f32x4.mul(hxs, f32x4.div(f32x4.sub(r1, t3), f32x4.sub(f32x4.splat(6), f32x4.mul(x, t3))));
  const k0 = f32x4.sub(x, f32x4.sub(f32x4.mul(x, e), hxs));
  e = f32x4.sub(f32x4.sub(f32x4.mul(x, f32x4.sub(e, c)), c), hxs);
  const xMinusE = f32x4.sub(x, e);
  const kMinus1 = f32x4.sub(f32x4.mul(f32x4.splat(0.5), xMinusE), f32x4.splat(0.5));
  const kPlus1 = v128.bitselect(
    f32x4.mul(f32x4.splat(-2), f32x4.sub(e, f32x4.add(x, f32x4.splat(0.5)))),
    f32x4.add(f32x4.splat(1), f32x4.mul(f32x4.splat(2), xMinusE)),
    f32x4.lt(x, f32x4.splat(-0.25)),
  );
  const twoPk = i32x4.shl(i32x4.add(k, i32x4.splat(0x7f)), 23);
  const twoMk = i32x4.shl(i32x4.sub(i32x4.splat(0x7f), k), 23);
  const kOutside = f32x4.sub(f32x4.mul(f32x4.add(xMinusE, f32x4.splat(1)), twoPk), f32x4.splat(1));
  const kBelow23 = f32x4.mul(f32x4.add(xMinusE, f32x4.sub(f32x4.splat(1), twoMk)), twoPk);
  const kFrom23 = f32x4.mul(f32x4.add(f32x4.sub(x, f32x4.add(e, twoMk)), f32x4.splat(1)), twoPk);
  let result = v128.bitselect(kBelow23, kFrom23, i32x4.lt_s(k, i32x4.splat(23)));
  result = v128.bitselect(kOutside, result, v128.or(i32x4.lt_s(k, i32x4.splat(0)), i32x4.gt_s(k, i32x4.splat(56))));
  result = v128.bitselect(kPlus1, result, i32x4.eq(k, i32x4.splat(1)));
  result = v128.bitselect(kMinus1, result, i32x4.eq(k, i32x4.splat(-1)));
  result = v128.bitselect(k0, result, i32x4.eq(k, i32x4.splat(0)));
  // |y| < 2^-25 (and not reduced): expm1f returns y itself.
  return v128.bitselect(y, result, i32x4.lt_s(hx, i32x4.splat(0x33000000)));
}

/** musl tanhf on four lanes. */
@inline function tanhLanes(input: v128): v128 {
  const sign = v128.and(input, i32x4.splat(0x80000000));
  const w = v128.and(input, i32x4.splat(0x7fffffff));
  const x = w; // |input|
  const large = i32x4.gt_s(w, i32x4.splat(0x3f0c9f54)); // |x| > log(3)/2, or NaN
  const middle = i32x4.gt_s(w, i32x4.splat(0x3e82c578)); // |x| > log(5/3)/2
  const twoX = f32x4.add(x, x);
  const e = expm1Lanes(v128.bitselect(twoX, f32x4.neg(twoX), middle));
  const two = f32x4.splat(2);
  const ePlus2 = f32x4.add(e, two);
  // t/(t+2) for |x| > log(5/3)/2, −t/(t+2) (the same quotient negated: IEEE division is
  // symmetric in sign) for smaller |x| >= 2^-126.
  const quotient = f32x4.div(e, ePlus2);
  let t = v128.bitselect(quotient, f32x4.neg(quotient), middle);
  t = v128.bitselect(f32x4.sub(f32x4.splat(1), f32x4.div(two, ePlus2)), t, large);
  // |x| > 10: 1 + 0/x, which is 1 unless x is NaN.
  const one = v128.bitselect(x, f32x4.splat(1), f32x4.ne(x, x));
  t = v128.bitselect(one, t, i32x4.gt_s(w, i32x4.splat(0x41200000)));
  t = v128.bitselect(x, t, i32x4.lt_s(w, i32x4.splat(0x00800000))); // subnormal
  return v128.xor(t, sign);
}

/** out[i] = tanh(x[i]) for `size` floats (out may be x). */
export function tanh(x: usize, out: usize, size: i32): void {
  let i = 0;
  for (; i + 4 <= size; i += 4) {
    const offset = <usize>i << 2;
    v128.store(out + offset, tanhLanes(v128.load(x + offset)));
  }
  if (i < size) {
    // The last 1–3 floats one lane at a time (never reading or writing past the end).
    for (; i < size; i++) {
      const value = tanhLanes(f32x4.splat(load<f32>(x + (<usize>i << 2))));
      store<f32>(out + (<usize>i << 2), f32x4.extract_lane(value, 0));
    }
  }
}

// Elementwise add, subtract and multiply of float32 with the broadcasts a model uses, over an
// output seen as [rows, cols]. Each operand is full ([rows, cols], mode 0), a scalar (1), a row
// repeated for every row ([cols], 2) or one value per row ([rows], 3). One IEEE operation per
// element, as the stock kernels do, so the results are the same floats.

@inline function op4(op: i32, x: v128, y: v128): v128 {
  if (op === 0) return f32x4.add(x, y);
  if (op === 1) return f32x4.sub(x, y);
  return f32x4.mul(x, y);
}

@inline function op1(op: i32, x: f32, y: f32): f32 {
  if (op === 0) return x + y;
  if (op === 1) return x - y;
  return x * y;
}

@inline function binary(op: i32, a: usize, b: usize, out: usize, rows: i32, cols: i32, aMode: i32, bMode: i32): void {
  const row = <usize>cols << 2;
  const aVector = aMode === 0 || aMode === 2;
  const bVector = bMode === 0 || bMode === 2;
  for (let i = 0; i < rows; i++) {
    const aRow: usize = aMode === 0 ? a + <usize>i * row : a;
    const bRow: usize = bMode === 0 ? b + <usize>i * row : b;
    const aValue: f32 = aMode === 1 ? load<f32>(a) : aMode === 3 ? load<f32>(a + (<usize>i << 2)) : 0;
    const bValue: f32 = bMode === 1 ? load<f32>(b) : bMode === 3 ? load<f32>(b + (<usize>i << 2)) : 0;
    const aSplat = f32x4.splat(aValue);
    const bSplat = f32x4.splat(bValue);
    const target = out + <usize>i * row;
    let j = 0;
    if (aVector && bVector) {
      for (; j + 4 <= cols; j += 4) {
        const offset = <usize>j << 2;
        v128.store(target + offset, op4(op, v128.load(aRow + offset), v128.load(bRow + offset)));
      }
    } else if (aVector) {
      for (; j + 4 <= cols; j += 4) {
        const offset = <usize>j << 2;
        v128.store(target + offset, op4(op, v128.load(aRow + offset), bSplat));
      }
    } else if (bVector) {
      for (; j + 4 <= cols; j += 4) {
        const offset = <usize>j << 2;
        v128.store(target + offset, op4(op, aSplat, v128.load(bRow + offset)));
      }
    }
    for (; j < cols; j++) {
      const offset = <usize>j << 2;
      const x = aVector ? load<f32>(aRow + offset) : aValue;
      const y = bVector ? load<f32>(bRow + offset) : bValue;
      store<f32>(target + offset, op1(op, x, y));
    }
  }
}

export function add(a: usize, b: usize, out: usize, rows: i32, cols: i32, aMode: i32, bMode: i32): void {
  binary(0, a, b, out, rows, cols, aMode, bMode);
}

export function sub(a: usize, b: usize, out: usize, rows: i32, cols: i32, aMode: i32, bMode: i32): void {
  binary(1, a, b, out, rows, cols, aMode, bMode);
}

export function mul(a: usize, b: usize, out: usize, rows: i32, cols: i32, aMode: i32, bMode: i32): void {
  binary(2, a, b, out, rows, cols, aMode, bMode);
}

// GELU, tanh approximation (PyTorch's approximate='tanh'), forward and backward in one pass each:
// twenty-one elementwise passes over a [rows, 4d] activation become two. 0.5·(1 + tanh(u)) is
// computed as the logistic σ(2u) = 1/(1 + e^(−2u)) with a Cephes-style exp (a degree-6 polynomial
// after reduction by ln 2, within 2 ulp): one exp and one division, and full relative precision
// where GELU is tiny (x ≪ 0), where 1 + tanh(u) in floats keeps only a few digits. The musl-exact
// tanh above would cost as much as the twenty passes it saves.

// Literals (√(2/π) and 3·0.044715 as JavaScript computes them in doubles), so no start function
// initialises them.
const GELU_SCALE: f32 = <f32>0.7978845608028654;
const GELU_CUBIC: f32 = <f32>0.044715;
const GELU_CUBIC_3: f32 = <f32>0.134145;

/** e^y for four lanes, y clamped to [−87.3, 88.3] (no overflow to the exponent bits); NaN stays NaN. */
@inline function expLanes(input: v128): v128 {
  const y = f32x4.max(f32x4.min(input, f32x4.splat(88.3)), f32x4.splat(-87.3));
  const n = f32x4.nearest(f32x4.mul(y, f32x4.splat(1.44269504088896341)));
  const r = f32x4.sub(f32x4.sub(y, f32x4.mul(n, f32x4.splat(0.693359375))), f32x4.mul(n, f32x4.splat(-2.12194440e-4)));
  let p = f32x4.add(f32x4.mul(f32x4.splat(1.9875691500e-4), r), f32x4.splat(1.3981999507e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(8.3334519073e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(4.1665795894e-2));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.6666665459e-1));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(5.0000001201e-1));
  const e = f32x4.add(f32x4.add(f32x4.mul(f32x4.mul(p, r), r), r), f32x4.splat(1));
  const scale = i32x4.shl(i32x4.add(i32x4.trunc_sat_f32x4_s(n), i32x4.splat(127)), 23);
  return f32x4.mul(e, scale);
}

/** 0.5·(1 + tanh(√(2/π)·x·(1 + c·x²))) = σ(2u) for four lanes, given x². */
@inline function geluGate(x: v128, square: v128): v128 {
  const u = f32x4.mul(f32x4.mul(x, f32x4.add(f32x4.mul(square, f32x4.splat(GELU_CUBIC)), f32x4.splat(1))), f32x4.splat(GELU_SCALE));
  return f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), expLanes(f32x4.mul(u, f32x4.splat(-2)))));
}

@inline function geluLanes(x: v128): v128 {
  return f32x4.mul(x, geluGate(x, f32x4.mul(x, x)));
}

/** dy · d/dx GELU(x) = dy · (σ + 2x·σ(1 − σ)·√(2/π)(1 + 3c·x²)), σ the gate. */
@inline function geluGradLanes(x: v128, dy: v128): v128 {
  const square = f32x4.mul(x, x);
  const gate = geluGate(x, square);
  const slope = f32x4.mul(f32x4.add(f32x4.mul(square, f32x4.splat(GELU_CUBIC_3)), f32x4.splat(1)), f32x4.splat(GELU_SCALE));
  const inner = f32x4.mul(f32x4.mul(f32x4.mul(f32x4.add(x, x), gate), f32x4.sub(f32x4.splat(1), gate)), slope);
  return f32x4.mul(dy, f32x4.add(gate, inner));
}

/** out[i] = GELU(x[i]) for `size` floats (out may be x). */
export function gelu(x: usize, out: usize, size: i32): void {
  let i = 0;
  for (; i + 4 <= size; i += 4) {
    const offset = <usize>i << 2;
    v128.store(out + offset, geluLanes(v128.load(x + offset)));
  }
  for (; i < size; i++) {
    const offset = <usize>i << 2;
    store<f32>(out + offset, f32x4.extract_lane(geluLanes(f32x4.splat(load<f32>(x + offset))), 0));
  }
}

/** out[i] = dy[i] · GELU'(x[i]) for `size` floats (out may be x or dy). */
export function geluGrad(x: usize, dy: usize, out: usize, size: i32): void {
  let i = 0;
  for (; i + 4 <= size; i += 4) {
    const offset = <usize>i << 2;
    v128.store(out + offset, geluGradLanes(v128.load(x + offset), v128.load(dy + offset)));
  }
  for (; i < size; i++) {
    const offset = <usize>i << 2;
    store<f32>(out + offset, f32x4.extract_lane(geluGradLanes(f32x4.splat(load<f32>(x + offset)), f32x4.splat(load<f32>(dy + offset))), 0));
  }
}

// Adam (tfjs's AdamOptimizer update, its float operations in its order) for one weight tensor, in
// one pass instead of fourteen kernels, with the gradient-clipping scale applied first:
//   g ← g·scale; m ← m·β1 + g·(1−β1); v ← v·β2 + g²·(1−β2);
//   x ← (m/(1−β1ᵗ)) / (√(v/(1−β2ᵗ)) + ε) · (−lr) + x
// Writes new x, m and v to their own outputs (they may be the inputs).
export function adam(
  x: usize, g: usize, m: usize, v: usize, xOut: usize, mOut: usize, vOut: usize, size: i32,
  scale: f32, beta1: f32, oneMinusBeta1: f32, beta2: f32, oneMinusBeta2: f32,
  correction1: f32, correction2: f32, epsilon: f32, negativeRate: f32,
): void {
  const sScale = f32x4.splat(scale);
  const sBeta1 = f32x4.splat(beta1);
  const sOneMinusBeta1 = f32x4.splat(oneMinusBeta1);
  const sBeta2 = f32x4.splat(beta2);
  const sOneMinusBeta2 = f32x4.splat(oneMinusBeta2);
  const sCorrection1 = f32x4.splat(correction1);
  const sCorrection2 = f32x4.splat(correction2);
  const sEpsilon = f32x4.splat(epsilon);
  const sRate = f32x4.splat(negativeRate);
  let i = 0;
  for (; i + 4 <= size; i += 4) {
    const offset = <usize>i << 2;
    const gradient = f32x4.mul(v128.load(g + offset), sScale);
    const first = f32x4.add(f32x4.mul(v128.load(m + offset), sBeta1), f32x4.mul(gradient, sOneMinusBeta1));
    const second = f32x4.add(f32x4.mul(v128.load(v + offset), sBeta2), f32x4.mul(f32x4.mul(gradient, gradient), sOneMinusBeta2));
    const step = f32x4.div(f32x4.div(first, sCorrection1), f32x4.add(f32x4.sqrt(f32x4.div(second, sCorrection2)), sEpsilon));
    v128.store(xOut + offset, f32x4.add(f32x4.mul(step, sRate), v128.load(x + offset)));
    v128.store(mOut + offset, first);
    v128.store(vOut + offset, second);
  }
  for (; i < size; i++) {
    const offset = <usize>i << 2;
    const gradient = load<f32>(g + offset) * scale;
    const first = load<f32>(m + offset) * beta1 + gradient * oneMinusBeta1;
    const second = load<f32>(v + offset) * beta2 + gradient * gradient * oneMinusBeta2;
    const step = first / correction1 / (sqrt<f32>(second / correction2) + epsilon);
    store<f32>(xOut + offset, step * negativeRate + load<f32>(x + offset));
    store<f32>(mOut + offset, first);
    store<f32>(vOut + offset, second);
  }
}

// The pixel stem with smooth-max pooling, forward and backward in one pass each over the pixels:
//   f = relu(p·W + b)  (p: a pixel's 3 values, W: [3, C], b: [C]),
//   pooled = (log Σ_block e^(β·f) − log P) / β  (P pixels in a pool × pool block),
// the max subtracted before the exp as tf.logSumExp does. The per-pixel features, their scaled
// copy and the exponentials are never stored: each block's features are recomputed from its pixels
// (3 multiplies and adds a channel), which costs less than writing and reading them back. Patches
// are [count, side, side, 3] pixels; the output [count, side/pool, side/pool, C]. Channels go four
// to a lane group; a last partial group reads and writes only its own lanes.

/** Up to four floats at `address` into lanes 0…width−1, zeros elsewhere. */
@inline function loadLanes(address: usize, width: i32): v128 {
  if (width >= 4) return v128.load(address);
  let value = f32x4.splat(0);
  value = f32x4.replace_lane(value, 0, load<f32>(address));
  if (width > 1) value = f32x4.replace_lane(value, 1, load<f32>(address, 4));
  if (width > 2) value = f32x4.replace_lane(value, 2, load<f32>(address, 8));
  return value;
}

/** Lanes 0…width−1 of `value` to `address`. */
@inline function storeLanes(address: usize, value: v128, width: i32): void {
  if (width >= 4) {
    v128.store(address, value);
    return;
  }
  store<f32>(address, f32x4.extract_lane(value, 0));
  if (width > 1) store<f32>(address, f32x4.extract_lane(value, 1), 4);
  if (width > 2) store<f32>(address, f32x4.extract_lane(value, 2), 8);
}

/**
 * ln x for a positive finite float, in doubles: x = 2^k·m with m in [√½, √2), ln m = 2·atanh z,
 * z = (m − 1)/(m + 1), |z| < 0.172, by its series to z¹⁹ (error < 1e-17), so that the float it
 * rounds to is the correctly rounded ln x. (AssemblyScript's Math.log would bring a lookup table,
 * a data segment this module must not have.)
 */
function logPositive(x: f32): f32 {
  let bits = reinterpret<u64>(<f64>x);
  let k = <i32>((bits >> 52) & 0x7ff) - 1023;
  let m = reinterpret<f64>((bits & 0x000fffffffffffff) | 0x3ff0000000000000);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    k += 1;
  }
  const z = (m - 1) / (m + 1);
  const w = z * z;
  let series = 1.0 / 19;
  series = series * w + 1.0 / 17;
  series = series * w + 1.0 / 15;
  series = series * w + 1.0 / 13;
  series = series * w + 1.0 / 11;
  series = series * w + 1.0 / 9;
  series = series * w + 1.0 / 7;
  series = series * w + 1.0 / 5;
  series = series * w + 1.0 / 3;
  series = series * w + 1;
  return <f32>(<f64>k * 0.6931471805599453 + 2 * z * series);
}

/** relu(p·W + b)·β for one pixel and one lane group, summed in tfjs's order ((p0w0 + p1w1) + p2w2) + b. */
@inline function stemScaled(pixel: usize, w0: v128, w1: v128, w2: v128, bias: v128, beta: v128): v128 {
  const product = f32x4.add(f32x4.add(f32x4.mul(splat(pixel), w0), f32x4.mul(splat(pixel + 4), w1)), f32x4.mul(splat(pixel + 8), w2));
  return f32x4.mul(f32x4.max(f32x4.add(product, bias), f32x4.splat(0)), beta);
}

/** The largest β·f of a block, lane by lane. */
@inline function blockMax(first: usize, rowStride: usize, pool: i32, w0: v128, w1: v128, w2: v128, bias: v128, beta: v128): v128 {
  let most = stemScaled(first, w0, w1, w2, bias, beta);
  for (let i = 0; i < pool; i++) {
    const row = first + <usize>i * rowStride;
    for (let j = 0; j < pool; j++) most = f32x4.max(most, stemScaled(row + <usize>j * 12, w0, w1, w2, bias, beta));
  }
  return most;
}

/** Forward: out[n, by, bx, c] = (max + ln Σ e^(β·f − max) − logPool) / β over each pool × pool block. */
export function smoothMaxStem(pixels: usize, weight: usize, bias: usize, out: usize, count: i32, side: i32, pool: i32, channels: i32, beta: f32, logPool: f32): void {
  const blocks = side / pool;
  const rowStride = <usize>side * 12;
  const betaSplat = f32x4.splat(beta);
  const channelBytes = <usize>channels << 2;
  for (let n = 0; n < count; n++) {
    const patch = pixels + <usize>n * <usize>side * rowStride;
    for (let by = 0; by < blocks; by++) {
      for (let bx = 0; bx < blocks; bx++) {
        const first = patch + <usize>(by * pool) * rowStride + <usize>(bx * pool) * 12;
        const target = out + (<usize>((n * blocks + by) * blocks + bx)) * channelBytes;
        for (let c = 0; c < channels; c += 4) {
          const width = channels - c < 4 ? channels - c : 4;
          const offset = <usize>c << 2;
          const w0 = loadLanes(weight + offset, width);
          const w1 = loadLanes(weight + channelBytes + offset, width);
          const w2 = loadLanes(weight + 2 * channelBytes + offset, width);
          const b = loadLanes(bias + offset, width);
          const most = blockMax(first, rowStride, pool, w0, w1, w2, b, betaSplat);
          // Σ e^(β·f − max) in tfjs's order (block rows, then columns), from 0.
          let total = f32x4.splat(0);
          for (let i = 0; i < pool; i++) {
            const row = first + <usize>i * rowStride;
            for (let j = 0; j < pool; j++) total = f32x4.add(total, expLanes(f32x4.sub(stemScaled(row + <usize>j * 12, w0, w1, w2, b, betaSplat), most)));
          }
          let logTotal = f32x4.splat(logPositive(f32x4.extract_lane(total, 0)));
          logTotal = f32x4.replace_lane(logTotal, 1, logPositive(f32x4.extract_lane(total, 1)));
          logTotal = f32x4.replace_lane(logTotal, 2, logPositive(f32x4.extract_lane(total, 2)));
          logTotal = f32x4.replace_lane(logTotal, 3, logPositive(f32x4.extract_lane(total, 3)));
          const pooled = f32x4.div(f32x4.sub(f32x4.add(most, logTotal), f32x4.splat(logPool)), betaSplat);
          storeLanes(target + offset, pooled, width);
        }
      }
    }
  }
}

/**
 * Backward: the gradients of Σ dy·pooled for W ([3, C]) and b ([C]). A pixel's feature gets
 * dy · e^(β·f − max) / Σ e^(β·f − max) (the softmax weight of the block: the max subtracted for
 * stability has no gradient, it cancels), through the ReLU where p·W + b > 0. Each block's sums
 * (Σ p_k·e·[f > 0], Σ e·[f > 0]) are taken in floats and scaled by dy/Σe once; the blocks' terms
 * are added in doubles in `scratch` (4·⌈C/4⌉·4 doubles, zeroed here) and rounded to floats at the
 * end. The tfjs graph sums a [pixels, C] gradient in floats, pixel by pixel.
 */
export function smoothMaxStemGrad(pixels: usize, weight: usize, bias: usize, dy: usize, dWeight: usize, dBias: usize, scratch: usize, count: i32, side: i32, pool: i32, channels: i32, beta: f32): void {
  const blocks = side / pool;
  const rowStride = <usize>side * 12;
  const betaSplat = f32x4.splat(beta);
  const channelBytes = <usize>channels << 2;
  const groups = (channels + 3) >> 2;
  // scratch: [4 rows (W's three, then b), groups · 4 lanes] doubles.
  const scratchRow = <usize>groups << 5;
  memory.fill(scratch, 0, 4 * scratchRow);
  for (let n = 0; n < count; n++) {
    const patch = pixels + <usize>n * <usize>side * rowStride;
    for (let by = 0; by < blocks; by++) {
      for (let bx = 0; bx < blocks; bx++) {
        const first = patch + <usize>(by * pool) * rowStride + <usize>(bx * pool) * 12;
        const gradient = dy + (<usize>((n * blocks + by) * blocks + bx)) * channelBytes;
        for (let c = 0; c < channels; c += 4) {
          const width = channels - c < 4 ? channels - c : 4;
          const offset = <usize>c << 2;
          const w0 = loadLanes(weight + offset, width);
          const w1 = loadLanes(weight + channelBytes + offset, width);
          const w2 = loadLanes(weight + 2 * channelBytes + offset, width);
          const b = loadLanes(bias + offset, width);
          const most = blockMax(first, rowStride, pool, w0, w1, w2, b, betaSplat);
          let total = f32x4.splat(0);
          let s0 = f32x4.splat(0);
          let s1 = f32x4.splat(0);
          let s2 = f32x4.splat(0);
          let sb = f32x4.splat(0);
          for (let i = 0; i < pool; i++) {
            const row = first + <usize>i * rowStride;
            for (let j = 0; j < pool; j++) {
              const pixel = row + <usize>j * 12;
              const scaled = stemScaled(pixel, w0, w1, w2, b, betaSplat);
              const e = expLanes(f32x4.sub(scaled, most));
              total = f32x4.add(total, e);
              // The ReLU passes the gradient where its input is > 0, that is where β·f > 0.
              const passed = v128.and(e, f32x4.gt(scaled, f32x4.splat(0)));
              s0 = f32x4.add(s0, f32x4.mul(splat(pixel), passed));
              s1 = f32x4.add(s1, f32x4.mul(splat(pixel + 4), passed));
              s2 = f32x4.add(s2, f32x4.mul(splat(pixel + 8), passed));
              sb = f32x4.add(sb, passed);
            }
          }
          const factor = f32x4.div(loadLanes(gradient + offset, width), total);
          const at = scratch + (<usize>c << 3);
          accumulate(at, f32x4.mul(s0, factor));
          accumulate(at + scratchRow, f32x4.mul(s1, factor));
          accumulate(at + 2 * scratchRow, f32x4.mul(s2, factor));
          accumulate(at + 3 * scratchRow, f32x4.mul(sb, factor));
        }
      }
    }
  }
  for (let c = 0; c < channels; c++) {
    const at = scratch + (<usize>c << 3);
    const offset = <usize>c << 2;
    store<f32>(dWeight + offset, <f32>load<f64>(at));
    store<f32>(dWeight + channelBytes + offset, <f32>load<f64>(at + scratchRow));
    store<f32>(dWeight + 2 * channelBytes + offset, <f32>load<f64>(at + 2 * scratchRow));
    store<f32>(dBias + offset, <f32>load<f64>(at + 3 * scratchRow));
  }
}

/** Adds four floats to the four doubles at `address`. */
@inline function accumulate(address: usize, value: v128): void {
  v128.store(address, f64x2.add(v128.load(address), f64x2.promote_low_f32x4(value)));
  v128.store(address, f64x2.add(v128.load(address, 16), f64x2.promote_low_f32x4(i32x4.shuffle(value, value, 2, 3, 0, 1))), 16);
}

// Fused multi-head attention, forward and backward in one kernel each, on the rows of a fused
// q | k | v projection: qkv is [batch·length, 3·d], d = heads·size, head h's columns
// h·size…(h+1)·size of each third; the output (the context) [batch·length, d] with the same head
// columns, so neither the heads' split nor their merge is a transpose in memory. Per batch item
// and head, in tiles of four queries:
//   s = (q·scale)·kᵀ + bias,  p = softmax(s) over keys,  out = p·v,
// the scaled q rounded to floats first, as the ops do. The scores exist for one tile at a time
// (forward) or one head at a time (backward), never for the whole batch.
//
// Masks: `bias` is [length, length] per batch item (biasStride floats apart; 0 shares one). A key
// whose bias is ≤ −1e8 is masked: its e^(s − max) underflows to exactly 0 in floats whenever the
// row has an unmasked key (the scores are nowhere near 1e8), so the keys after a row's last
// unmasked key are skipped, not computed: a causal mask costs half the products. A row with
// every key masked is computed over all its keys, literally, as the ops do. The forward keeps
// each row's max and Σ e (stats [batch, heads, length, 2]); the backward recomputes p from them
// bit for bit.

const MASK_LIMIT: f32 = -1e8;

/** e^y for four lanes, exactly 0 below −87.3 (a masked score), as the stock Exp underflows. */
@inline function expOrZero(y: v128): v128 {
  return v128.andnot(expLanes(y), f32x4.lt(y, f32x4.splat(-87.3)));
}

@inline function laneSum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

@inline function laneMax(v: v128): f32 {
  return max(max(f32x4.extract_lane(v, 0), f32x4.extract_lane(v, 1)), max(f32x4.extract_lane(v, 2), f32x4.extract_lane(v, 3)));
}

/** ends[i] = 1 + the last key row i does not mask; `length` for a row that masks every key. */
function rowEnds(hasBias: bool, bias: usize, length: i32, ends: usize): void {
  for (let i = 0; i < length; i++) {
    let end = length;
    if (hasBias) {
      const row = bias + ((<usize>i * <usize>length) << 2);
      let j = length - 1;
      while (j >= 0 && load<f32>(row + (<usize>j << 2)) <= MASK_LIMIT) j--;
      end = j < 0 ? length : j + 1;
    }
    store<i32>(ends + (<usize>i << 2), end);
  }
}

/** Fills floats [from, to) of a row with zeros. */
@inline function zeroFloats(row: usize, from: i32, to: i32): void {
  let j = from;
  for (; j + 4 <= to; j += 4) v128.store(row + (<usize>j << 2), f32x4.splat(0));
  for (; j < to; j++) store<f32>(row + (<usize>j << 2), 0);
}

/** target[i, p] = q[i, p]·scale and kT[p, i] = k[i, p] for one head (rows `rowBytes` apart). */
function gatherHead(rows: usize, rowBytes: usize, length: i32, size: i32, scale: f32, target: usize, transposeFrom: usize, transposed: usize): void {
  const factor = f32x4.splat(scale);
  const lengthBytes = <usize>length << 2;
  for (let i = 0; i < length; i++) {
    const source = rows + <usize>i * rowBytes;
    const out = target + ((<usize>i * <usize>size) << 2);
    let p = 0;
    for (; p + 4 <= size; p += 4) v128.store(out + (<usize>p << 2), f32x4.mul(v128.load(source + (<usize>p << 2)), factor));
    for (; p < size; p++) store<f32>(out + (<usize>p << 2), load<f32>(source + (<usize>p << 2)) * scale);
    const keys = transposeFrom + <usize>i * rowBytes;
    for (p = 0; p < size; p++) store<f32>(transposed + <usize>p * lengthBytes + (<usize>i << 2), load<f32>(keys + (<usize>p << 2)));
  }
}

/** kT[p, i] = k[i, p] for one head. */
function transposeHead(rows: usize, rowBytes: usize, length: i32, size: i32, transposed: usize): void {
  const lengthBytes = <usize>length << 2;
  for (let i = 0; i < length; i++) {
    const source = rows + <usize>i * rowBytes;
    for (let p = 0; p < size; p++) store<f32>(transposed + <usize>p * lengthBytes + (<usize>i << 2), load<f32>(source + (<usize>p << 2)));
  }
}

/**
 * One row of scores s[0…end) (bias added) to probabilities in place, zeros in [end, to); writes
 * the row's max and Σ e to stat (two floats). `recompute`: take max and Σ e from stat instead.
 */
@inline function softmaxRow(s: usize, biasRow: usize, hasBias: bool, end: i32, to: i32, stat: usize, recompute: bool): void {
  let j = 0;
  let largest: f32 = load<f32>(stat);
  if (!recompute) {
    let top = f32x4.splat(-Infinity);
    for (; j + 4 <= end; j += 4) {
      const at = <usize>j << 2;
      let x = v128.load(s + at);
      if (hasBias) x = f32x4.add(x, v128.load(biasRow + at));
      v128.store(s + at, x);
      top = f32x4.max(top, x);
    }
    largest = laneMax(top);
    for (; j < end; j++) {
      const at = <usize>j << 2;
      let x = load<f32>(s + at);
      if (hasBias) x += load<f32>(biasRow + at);
      store<f32>(s + at, x);
      largest = max(largest, x);
    }
  } else if (hasBias) {
    for (; j + 4 <= end; j += 4) {
      const at = <usize>j << 2;
      v128.store(s + at, f32x4.add(v128.load(s + at), v128.load(biasRow + at)));
    }
    for (; j < end; j++) {
      const at = <usize>j << 2;
      store<f32>(s + at, load<f32>(s + at) + load<f32>(biasRow + at));
    }
  }
  const shift = f32x4.splat(largest);
  let total: f32 = load<f32>(stat, 4);
  if (!recompute) {
    let sums = f32x4.splat(0);
    j = 0;
    for (; j + 4 <= end; j += 4) {
      const at = <usize>j << 2;
      const e = expOrZero(f32x4.sub(v128.load(s + at), shift));
      v128.store(s + at, e);
      sums = f32x4.add(sums, e);
    }
    total = laneSum(sums);
    for (; j < end; j++) {
      const at = <usize>j << 2;
      const e = f32x4.extract_lane(expOrZero(f32x4.splat(load<f32>(s + at) - largest)), 0);
      store<f32>(s + at, e);
      total += e;
    }
    store<f32>(stat, largest);
    store<f32>(stat, total, 4);
  } else {
    j = 0;
    for (; j + 4 <= end; j += 4) {
      const at = <usize>j << 2;
      v128.store(s + at, expOrZero(f32x4.sub(v128.load(s + at), shift)));
    }
    for (; j < end; j++) {
      const at = <usize>j << 2;
      store<f32>(s + at, f32x4.extract_lane(expOrZero(f32x4.splat(load<f32>(s + at) - largest)), 0));
    }
  }
  const divisor = f32x4.splat(total);
  j = 0;
  for (; j + 4 <= end; j += 4) {
    const at = <usize>j << 2;
    v128.store(s + at, f32x4.div(v128.load(s + at), divisor));
  }
  for (; j < end; j++) {
    const at = <usize>j << 2;
    store<f32>(s + at, load<f32>(s + at) / total);
  }
  zeroFloats(s, end, to);
}

/** The largest of ends[from…from+count). */
@inline function tileEnd(ends: usize, from: i32, count: i32): i32 {
  let n = 0;
  for (let r = 0; r < count; r++) n = max(n, load<i32>(ends + (<usize>(from + r) << 2)));
  return n;
}

/**
 * Forward: out [batch·length, d] and stats [batch, heads, length, 2] from qkv (see above).
 * scratch: length ints, then 2·length·size + 4·length floats.
 */
export function attention(
  qkv: usize,
  bias: usize,
  out: usize,
  stats: usize,
  scratch: usize,
  batch: i32,
  length: i32,
  heads: i32,
  size: i32,
  hasBias: bool,
  biasStride: i32,
  scale: f32,
): void {
  const d = heads * size;
  const qkvRow = (<usize>d * 3) << 2;
  const outRow = <usize>d << 2;
  const lengthBytes = <usize>length << 2;
  const headBytes = (<usize>length * <usize>size) << 2;
  const ends = scratch;
  const q = ends + lengthBytes;
  const kT = q + headBytes;
  const tile = kT + headBytes;
  for (let b = 0; b < batch; b++) {
    const biasItem = bias + ((<usize>b * <usize>biasStride) << 2);
    if (b === 0 || biasStride !== 0) rowEnds(hasBias, biasItem, length, ends);
    const rows = qkv + <usize>b * <usize>length * qkvRow;
    for (let h = 0; h < heads; h++) {
      const head = (<usize>h * <usize>size) << 2;
      gatherHead(rows + head, qkvRow, length, size, scale, q, rows + outRow + head, kT);
      const values = rows + 2 * outRow + head;
      const stat = stats + ((<usize>(b * heads + h) * <usize>length) << 3);
      for (let i0 = 0; i0 < length; i0 += 4) {
        const m = min(4, length - i0);
        const n = tileEnd(ends, i0, m);
        stridedProduct(q + ((<usize>i0 * <usize>size) << 2), <usize>size << 2, 4, kT, lengthBytes, tile, lengthBytes, m, size, n, false);
        for (let r = 0; r < m; r++) {
          const i = i0 + r;
          softmaxRow(tile + <usize>r * lengthBytes, biasItem + <usize>i * lengthBytes, hasBias, load<i32>(ends + (<usize>i << 2)), n, stat + (<usize>i << 3), false);
        }
        stridedProduct(tile, lengthBytes, 4, values, qkvRow, out + (<usize>b * <usize>length + <usize>i0) * outRow + head, outRow, m, n, size, false);
      }
    }
  }
}

/**
 * Backward: dqkv [batch·length, 3·d] (every float written) from qkv, bias, stats and dy (the
 * output's gradient). scratch: length + 2·⌈length/4⌉ ints, then 3·length·size + 2·length² floats.
 * dS = p·dP − (Σ p·dP)·p (tfjs's softmax gradient), dq = scale·dS·k, dk = dSᵀ·(q·scale), dv = pᵀ·dy.
 */
export function attentionGrad(
  qkv: usize,
  bias: usize,
  dy: usize,
  stats: usize,
  dqkv: usize,
  scratch: usize,
  batch: i32,
  length: i32,
  heads: i32,
  size: i32,
  hasBias: bool,
  biasStride: i32,
  scale: f32,
): void {
  const d = heads * size;
  const qkvRow = (<usize>d * 3) << 2;
  const outRow = <usize>d << 2;
  const lengthBytes = <usize>length << 2;
  const headBytes = (<usize>length * <usize>size) << 2;
  const tiles = (length + 3) >> 2;
  const ends = scratch;
  const tileEnds = ends + lengthBytes;
  const starts = tileEnds + (<usize>tiles << 2);
  const q = starts + (<usize>tiles << 2);
  const kT = q + headBytes;
  const vT = kT + headBytes;
  const probabilities = vT + headBytes;
  const dScores = probabilities + <usize>length * lengthBytes;
  const factor = f32x4.splat(scale);
  for (let b = 0; b < batch; b++) {
    const biasItem = bias + ((<usize>b * <usize>biasStride) << 2);
    if (b === 0 || biasStride !== 0) {
      rowEnds(hasBias, biasItem, length, ends);
      for (let t = 0; t < tiles; t++) store<i32>(tileEnds + (<usize>t << 2), tileEnd(ends, t << 2, min(4, length - (t << 2))));
      // Key tile t is read by the query tiles from the first one whose scores reach it (the rows
      // before only have exact zeros there).
      for (let t = 0; t < tiles; t++) {
        let first = 0;
        while (first < tiles && load<i32>(tileEnds + (<usize>first << 2)) <= t << 2) first++;
        store<i32>(starts + (<usize>t << 2), min(first << 2, length));
      }
    }
    const rows = qkv + <usize>b * <usize>length * qkvRow;
    const gradients = dqkv + <usize>b * <usize>length * qkvRow;
    const dOut = dy + <usize>b * <usize>length * outRow;
    for (let h = 0; h < heads; h++) {
      const head = (<usize>h * <usize>size) << 2;
      const keys = rows + outRow + head;
      const values = rows + 2 * outRow + head;
      gatherHead(rows + head, qkvRow, length, size, scale, q, keys, kT);
      transposeHead(values, qkvRow, length, size, vT);
      const stat = stats + ((<usize>(b * heads + h) * <usize>length) << 3);
      for (let i0 = 0; i0 < length; i0 += 4) {
        const m = min(4, length - i0);
        const n = load<i32>(tileEnds + (<usize>(i0 >> 2) << 2));
        const pTile = probabilities + <usize>i0 * lengthBytes;
        const dTile = dScores + <usize>i0 * lengthBytes;
        stridedProduct(q + ((<usize>i0 * <usize>size) << 2), <usize>size << 2, 4, kT, lengthBytes, pTile, lengthBytes, m, size, n, false);
        stridedProduct(dOut + <usize>i0 * outRow + head, outRow, 4, vT, lengthBytes, dTile, lengthBytes, m, size, n, false);
        for (let r = 0; r < m; r++) {
          const i = i0 + r;
          const end = load<i32>(ends + (<usize>i << 2));
          const p = pTile + <usize>r * lengthBytes;
          const ds = dTile + <usize>r * lengthBytes;
          softmaxRow(p, biasItem + <usize>i * lengthBytes, hasBias, end, length, stat + (<usize>i << 3), true);
          let sums = f32x4.splat(0);
          let j = 0;
          for (; j + 4 <= end; j += 4) {
            const at = <usize>j << 2;
            const product = f32x4.mul(v128.load(ds + at), v128.load(p + at));
            v128.store(ds + at, product);
            sums = f32x4.add(sums, product);
          }
          let total = laneSum(sums);
          for (; j < end; j++) {
            const at = <usize>j << 2;
            const product = load<f32>(ds + at) * load<f32>(p + at);
            store<f32>(ds + at, product);
            total += product;
          }
          const dot = f32x4.splat(total);
          j = 0;
          for (; j + 4 <= end; j += 4) {
            const at = <usize>j << 2;
            v128.store(ds + at, f32x4.sub(v128.load(ds + at), f32x4.mul(dot, v128.load(p + at))));
          }
          for (; j < end; j++) {
            const at = <usize>j << 2;
            store<f32>(ds + at, load<f32>(ds + at) - total * load<f32>(p + at));
          }
          zeroFloats(ds, end, length);
        }
        // dq = (dS·k)·scale for the tile's rows.
        const dq = gradients + <usize>i0 * qkvRow + head;
        stridedProduct(dTile, lengthBytes, 4, keys, qkvRow, dq, qkvRow, m, n, size, false);
        for (let r = 0; r < m; r++) {
          const row = dq + <usize>r * qkvRow;
          let p = 0;
          for (; p + 4 <= size; p += 4) v128.store(row + (<usize>p << 2), f32x4.mul(v128.load(row + (<usize>p << 2)), factor));
          for (; p < size; p++) store<f32>(row + (<usize>p << 2), load<f32>(row + (<usize>p << 2)) * scale);
        }
      }
      for (let j0 = 0; j0 < length; j0 += 4) {
        const m = min(4, length - j0);
        const i0 = load<i32>(starts + (<usize>(j0 >> 2) << 2));
        const depth = length - i0;
        const at = <usize>i0 * lengthBytes + (<usize>j0 << 2);
        const target = gradients + <usize>j0 * qkvRow + head;
        stridedProduct(probabilities + at, 4, lengthBytes, dOut + <usize>i0 * outRow + head, outRow, target + 2 * outRow, qkvRow, m, depth, size, false);
        stridedProduct(dScores + at, 4, lengthBytes, q + ((<usize>i0 * <usize>size) << 2), <usize>size << 2, target + outRow, qkvRow, m, depth, size, false);
      }
    }
  }
}

// One decoding step of multi-head attention against a KV cache held with room to grow: keys and
// values [rows, heads, capacity, size], positions 0…position−1 already filled. The step's q | k | v
// (qkv [rows, 3·d], heads side by side as above) writes its key and value at `position` in place,
// then each row's query attends positions 0…position: s = (q·scale)·kᵀ + bias, p = softmax(s),
// out = p·v. bias is [rows, capacity] (0 where a row may look, ≤ −1e8 at its left padding). Writing
// in place is what makes a step cost the attention, not a copy of the whole cache.
// scratch: size + capacity floats, then 2 floats of softmax stats.

/** Σ a[p]·b[p] over `size` floats, in four lanes then a tail. */
@inline function dotFloats(a: usize, b: usize, size: i32): f32 {
  let sums = f32x4.splat(0);
  let p = 0;
  for (; p + 4 <= size; p += 4) {
    const at = <usize>p << 2;
    sums = f32x4.add(sums, f32x4.mul(v128.load(a + at), v128.load(b + at)));
  }
  let total = laneSum(sums);
  for (; p < size; p++) total += load<f32>(a + (<usize>p << 2)) * load<f32>(b + (<usize>p << 2));
  return total;
}

/**
 * s[t] = q·k[t] for keys t < end (`size` floats each, contiguous): four keys at a time, their four
 * lane sums gathered into one vector by two rounds of shuffles, so q is loaded once per four keys.
 */
@inline function scoreKeys(q: usize, k: usize, s: usize, end: i32, size: i32): void {
  const sizeBytes = <usize>size << 2;
  let t = 0;
  if ((size & 3) == 0) {
    for (; t + 4 <= end; t += 4) {
      const k0 = k + <usize>t * sizeBytes;
      const k1 = k0 + sizeBytes;
      const k2 = k1 + sizeBytes;
      const k3 = k2 + sizeBytes;
      let a0 = f32x4.splat(0);
      let a1 = f32x4.splat(0);
      let a2 = f32x4.splat(0);
      let a3 = f32x4.splat(0);
      for (let p = 0; p < size; p += 4) {
        const at = <usize>p << 2;
        const x = v128.load(q + at);
        a0 = f32x4.add(a0, f32x4.mul(x, v128.load(k0 + at)));
        a1 = f32x4.add(a1, f32x4.mul(x, v128.load(k1 + at)));
        a2 = f32x4.add(a2, f32x4.mul(x, v128.load(k2 + at)));
        a3 = f32x4.add(a3, f32x4.mul(x, v128.load(k3 + at)));
      }
      const b01 = f32x4.add(i32x4.shuffle(a0, a1, 0, 1, 4, 5), i32x4.shuffle(a0, a1, 2, 3, 6, 7));
      const b23 = f32x4.add(i32x4.shuffle(a2, a3, 0, 1, 4, 5), i32x4.shuffle(a2, a3, 2, 3, 6, 7));
      v128.store(s + (<usize>t << 2), f32x4.add(i32x4.shuffle(b01, b23, 0, 2, 4, 6), i32x4.shuffle(b01, b23, 1, 3, 5, 7)));
    }
  }
  for (; t < end; t++) store<f32>(s + (<usize>t << 2), dotFloats(q, k + <usize>t * sizeBytes, size));
}

/**
 * target[0…size) = Σ_t p[t]·v[t] over t < end, sixteen (then four) columns at a time held in
 * registers across all t; keys of weight 0 (masked) are skipped.
 */
@inline function weighValues(p: usize, v: usize, target: usize, end: i32, size: i32): void {
  const sizeBytes = <usize>size << 2;
  let c = 0;
  for (; c + 16 <= size; c += 16) {
    let o0 = f32x4.splat(0);
    let o1 = f32x4.splat(0);
    let o2 = f32x4.splat(0);
    let o3 = f32x4.splat(0);
    for (let t = 0; t < end; t++) {
      const weight = load<f32>(p + (<usize>t << 2));
      if (weight == 0) continue;
      const w = f32x4.splat(weight);
      const from = v + <usize>t * sizeBytes + (<usize>c << 2);
      o0 = f32x4.add(o0, f32x4.mul(w, v128.load(from)));
      o1 = f32x4.add(o1, f32x4.mul(w, v128.load(from, 16)));
      o2 = f32x4.add(o2, f32x4.mul(w, v128.load(from, 32)));
      o3 = f32x4.add(o3, f32x4.mul(w, v128.load(from, 48)));
    }
    const to = target + (<usize>c << 2);
    v128.store(to, o0);
    v128.store(to, o1, 16);
    v128.store(to, o2, 32);
    v128.store(to, o3, 48);
  }
  for (; c + 4 <= size; c += 4) {
    let o = f32x4.splat(0);
    for (let t = 0; t < end; t++) {
      const weight = load<f32>(p + (<usize>t << 2));
      if (weight == 0) continue;
      o = f32x4.add(o, f32x4.mul(f32x4.splat(weight), v128.load(v + <usize>t * sizeBytes + (<usize>c << 2))));
    }
    v128.store(target + (<usize>c << 2), o);
  }
  for (; c < size; c++) {
    let o: f32 = 0;
    for (let t = 0; t < end; t++) o += load<f32>(p + (<usize>t << 2)) * load<f32>(v + <usize>t * sizeBytes + (<usize>c << 2));
    store<f32>(target + (<usize>c << 2), o);
  }
}

export function decodeAttention(
  qkv: usize,
  keys: usize,
  values: usize,
  bias: usize,
  out: usize,
  scratch: usize,
  rows: i32,
  heads: i32,
  size: i32,
  capacity: i32,
  position: i32,
  hasBias: bool,
  scale: f32,
): void {
  const d = heads * size;
  const qkvRow = (<usize>d * 3) << 2;
  const outRow = <usize>d << 2;
  const sizeBytes = <usize>size << 2;
  const q = scratch;
  const s = q + sizeBytes;
  const stat = s + ((<usize>capacity) << 2);
  const end = position + 1;
  const factor = f32x4.splat(scale);
  for (let r = 0; r < rows; r++) {
    const row = qkv + <usize>r * qkvRow;
    const biasRow = bias + ((<usize>r * <usize>capacity) << 2);
    for (let h = 0; h < heads; h++) {
      const head = (<usize>h * <usize>size) << 2;
      const cached = (<usize>(r * heads + h) * <usize>capacity) * sizeBytes;
      const k = keys + cached;
      const v = values + cached;
      memory.copy(k + <usize>position * sizeBytes, row + outRow + head, sizeBytes);
      memory.copy(v + <usize>position * sizeBytes, row + 2 * outRow + head, sizeBytes);
      let p = 0;
      for (; p + 4 <= size; p += 4) v128.store(q + (<usize>p << 2), f32x4.mul(v128.load(row + head + (<usize>p << 2)), factor));
      for (; p < size; p++) store<f32>(q + (<usize>p << 2), load<f32>(row + head + (<usize>p << 2)) * scale);
      scoreKeys(q, k, s, end, size);
      softmaxRow(s, biasRow, hasBias, end, end, stat, false);
      weighValues(s, v, out + <usize>r * outRow + head, end, size);
    }
  }
}

// Layer norm over the last axis of a row-major [rows, d] matrix, forward and backward in one
// kernel each, with the float operations of the tfjs ops (the models' layerNorm) in their order,
// so the same floats:
//   mean = (Σ_j x_j)/d,  c = x − mean,  inverse = 1/√((Σ_j c_j²)/d + ε),  y = (c·inverse)·gain + bias
// each row's sums adding its columns in order from 0, as the stock Mean does. A row's sum is a
// chain of dependent adds, so four rows run side by side, a row to a lane: each 4 × 4 block is
// transposed by shuffles and its columns added in order. The forward keeps each row's mean and
// inverse ([rows] each); the backward recomputes x̂ = (x − mean)·inverse from them (bit for bit the
// forward's) instead of reading a stored [rows, d] x̂:
//   g = dy·gain,  dx = ((g − (Σ_j g)/d) − x̂·(Σ_j g·x̂)/d)·inverse,
//   dgain = Σ_rows dy·x̂,  dbias = Σ_rows dy
// the column sums adding rows in order from 0, as the Sum kernel does. Any d: columns past the
// last multiple of 4 are gathered lane by lane; a last group of fewer than four rows repeats its
// last row in the spare lanes and keeps only its own.

/** Float `at` bytes into each of four rows, as lanes. */
@inline function gather4(r0: usize, r1: usize, r2: usize, r3: usize, at: usize): v128 {
  let value = f32x4.splat(load<f32>(r0 + at));
  value = f32x4.replace_lane(value, 1, load<f32>(r1 + at));
  value = f32x4.replace_lane(value, 2, load<f32>(r2 + at));
  return f32x4.replace_lane(value, 3, load<f32>(r3 + at));
}

/** Σ_j row_j over the columns of four rows (a row to a lane), in order from 0. */
@inline function rowSums4(r0: usize, r1: usize, r2: usize, r3: usize, d: i32): v128 {
  let sum = f32x4.splat(0);
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const at = <usize>j << 2;
    const a = v128.load(r0 + at);
    const b = v128.load(r1 + at);
    const c = v128.load(r2 + at);
    const e = v128.load(r3 + at);
    const low01 = i32x4.shuffle(a, b, 0, 4, 1, 5);
    const high01 = i32x4.shuffle(a, b, 2, 6, 3, 7);
    const low23 = i32x4.shuffle(c, e, 0, 4, 1, 5);
    const high23 = i32x4.shuffle(c, e, 2, 6, 3, 7);
    sum = f32x4.add(sum, i32x4.shuffle(low01, low23, 0, 1, 4, 5));
    sum = f32x4.add(sum, i32x4.shuffle(low01, low23, 2, 3, 6, 7));
    sum = f32x4.add(sum, i32x4.shuffle(high01, high23, 0, 1, 4, 5));
    sum = f32x4.add(sum, i32x4.shuffle(high01, high23, 2, 3, 6, 7));
  }
  for (; j < d; j++) sum = f32x4.add(sum, gather4(r0, r1, r2, r3, <usize>j << 2));
  return sum;
}

/** Σ_j (row_j − mean)² over the columns of four rows (a row to a lane, `mean` per lane), in order from 0. */
@inline function centredSquares4(r0: usize, r1: usize, r2: usize, r3: usize, d: i32, mean: v128): v128 {
  let sum = f32x4.splat(0);
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const at = <usize>j << 2;
    const a = v128.load(r0 + at);
    const b = v128.load(r1 + at);
    const c = v128.load(r2 + at);
    const e = v128.load(r3 + at);
    const low01 = i32x4.shuffle(a, b, 0, 4, 1, 5);
    const high01 = i32x4.shuffle(a, b, 2, 6, 3, 7);
    const low23 = i32x4.shuffle(c, e, 0, 4, 1, 5);
    const high23 = i32x4.shuffle(c, e, 2, 6, 3, 7);
    const c0 = f32x4.sub(i32x4.shuffle(low01, low23, 0, 1, 4, 5), mean);
    const c1 = f32x4.sub(i32x4.shuffle(low01, low23, 2, 3, 6, 7), mean);
    const c2 = f32x4.sub(i32x4.shuffle(high01, high23, 0, 1, 4, 5), mean);
    const c3 = f32x4.sub(i32x4.shuffle(high01, high23, 2, 3, 6, 7), mean);
    sum = f32x4.add(sum, f32x4.mul(c0, c0));
    sum = f32x4.add(sum, f32x4.mul(c1, c1));
    sum = f32x4.add(sum, f32x4.mul(c2, c2));
    sum = f32x4.add(sum, f32x4.mul(c3, c3));
  }
  for (; j < d; j++) {
    const c = f32x4.sub(gather4(r0, r1, r2, r3, <usize>j << 2), mean);
    sum = f32x4.add(sum, f32x4.mul(c, c));
  }
  return sum;
}

/** y = ((x − mean)·inverse)·gain + bias for one row. */
function normaliseRow(x: usize, gain: usize, bias: usize, out: usize, d: i32, mean: f32, inverse: f32): void {
  const m = f32x4.splat(mean);
  const inv = f32x4.splat(inverse);
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const at = <usize>j << 2;
    v128.store(out + at, f32x4.add(f32x4.mul(f32x4.mul(f32x4.sub(v128.load(x + at), m), inv), v128.load(gain + at)), v128.load(bias + at)));
  }
  for (; j < d; j++) {
    const at = <usize>j << 2;
    store<f32>(out + at, (load<f32>(x + at) - mean) * inverse * load<f32>(gain + at) + load<f32>(bias + at));
  }
}

/** Layer norm of [rows, d] x to `out`, each row's mean and inverse to `mean` and `inverse` ([rows] each). */
export function layerNorm(x: usize, gain: usize, bias: usize, out: usize, mean: usize, inverse: usize, rows: i32, d: i32, epsilon: f32): void {
  const rowBytes = <usize>d << 2;
  const count = f32x4.splat(<f32>d);
  for (let r = 0; r < rows; r += 4) {
    const lanes = min(rows - r, 4);
    const r0 = x + <usize>r * rowBytes;
    const r1 = lanes > 1 ? r0 + rowBytes : r0;
    const r2 = lanes > 2 ? r1 + rowBytes : r1;
    const r3 = lanes > 3 ? r2 + rowBytes : r2;
    const m = f32x4.div(rowSums4(r0, r1, r2, r3, d), count);
    const variance = f32x4.div(centredSquares4(r0, r1, r2, r3, d, m), count);
    const inv = f32x4.div(f32x4.splat(1), f32x4.sqrt(f32x4.add(variance, f32x4.splat(epsilon))));
    const stat = <usize>r << 2;
    storeLanes(mean + stat, m, lanes);
    storeLanes(inverse + stat, inv, lanes);
    for (let k = 0; k < lanes; k++) {
      const row = <usize>(r + k);
      normaliseRow(x + row * rowBytes, gain, bias, out + row * rowBytes, d, load<f32>(mean + (row << 2)), load<f32>(inverse + (row << 2)));
    }
  }
}

/**
 * One row's dx = ((g − gMean) − x̂·gxMean)·inverse, and its dy·x̂ and dy added to the column sums
 * dGain and dBias.
 */
function layerNormGradRow(
  x: usize, dy: usize, gain: usize, dx: usize, dGain: usize, dBias: usize, d: i32,
  mean: f32, inverse: f32, gMean: f32, gxMean: f32,
): void {
  const m = f32x4.splat(mean);
  const inv = f32x4.splat(inverse);
  const m1 = f32x4.splat(gMean);
  const m2 = f32x4.splat(gxMean);
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const at = <usize>j << 2;
    const dyv = v128.load(dy + at);
    const g = f32x4.mul(dyv, v128.load(gain + at));
    const h = f32x4.mul(f32x4.sub(v128.load(x + at), m), inv);
    v128.store(dx + at, f32x4.mul(f32x4.sub(f32x4.sub(g, m1), f32x4.mul(h, m2)), inv));
    v128.store(dGain + at, f32x4.add(v128.load(dGain + at), f32x4.mul(dyv, h)));
    v128.store(dBias + at, f32x4.add(v128.load(dBias + at), dyv));
  }
  for (; j < d; j++) {
    const at = <usize>j << 2;
    const dyv = load<f32>(dy + at);
    const g = dyv * load<f32>(gain + at);
    const h = (load<f32>(x + at) - mean) * inverse;
    store<f32>(dx + at, (g - gMean - h * gxMean) * inverse);
    store<f32>(dGain + at, load<f32>(dGain + at) + dyv * h);
    store<f32>(dBias + at, load<f32>(dBias + at) + dyv);
  }
}

/**
 * The gradients of Σ dy·layerNorm(x) for x ([rows, d], to dx), gain and bias ([d] each, to dGain
 * and dBias), from the forward's per-row mean and inverse.
 */
export function layerNormGrad(x: usize, gain: usize, mean: usize, inverse: usize, dy: usize, dx: usize, dGain: usize, dBias: usize, rows: i32, d: i32): void {
  const rowBytes = <usize>d << 2;
  const count = f32x4.splat(<f32>d);
  for (let j = 0; j < d; j++) {
    store<f32>(dGain + (<usize>j << 2), 0);
    store<f32>(dBias + (<usize>j << 2), 0);
  }
  for (let r = 0; r < rows; r += 4) {
    const lanes = min(rows - r, 4);
    const first = <usize>r * rowBytes;
    const step1 = lanes > 1 ? rowBytes : 0;
    const step2 = lanes > 2 ? rowBytes : 0;
    const step3 = lanes > 3 ? rowBytes : 0;
    const x0 = x + first;
    const x1 = x0 + step1;
    const x2 = x1 + step2;
    const x3 = x2 + step3;
    const y0 = dy + first;
    const y1 = y0 + step1;
    const y2 = y1 + step2;
    const y3 = y2 + step3;
    const stat = <usize>r << 2;
    const m = loadLanes(mean + stat, lanes);
    const inv = loadLanes(inverse + stat, lanes);
    // Per lane (row): Σ_j g_j and Σ_j g_j·x̂_j, g = dy·gain, x̂ = (x − mean)·inverse.
    let sum = f32x4.splat(0);
    let weighted = f32x4.splat(0);
    let j = 0;
    for (; j + 4 <= d; j += 4) {
      const at = <usize>j << 2;
      const xa = v128.load(x0 + at);
      const xb = v128.load(x1 + at);
      const xc = v128.load(x2 + at);
      const xe = v128.load(x3 + at);
      const xLow01 = i32x4.shuffle(xa, xb, 0, 4, 1, 5);
      const xHigh01 = i32x4.shuffle(xa, xb, 2, 6, 3, 7);
      const xLow23 = i32x4.shuffle(xc, xe, 0, 4, 1, 5);
      const xHigh23 = i32x4.shuffle(xc, xe, 2, 6, 3, 7);
      const ya = v128.load(y0 + at);
      const yb = v128.load(y1 + at);
      const yc = v128.load(y2 + at);
      const ye = v128.load(y3 + at);
      const yLow01 = i32x4.shuffle(ya, yb, 0, 4, 1, 5);
      const yHigh01 = i32x4.shuffle(ya, yb, 2, 6, 3, 7);
      const yLow23 = i32x4.shuffle(yc, ye, 0, 4, 1, 5);
      const yHigh23 = i32x4.shuffle(yc, ye, 2, 6, 3, 7);
      const g0 = f32x4.mul(i32x4.shuffle(yLow01, yLow23, 0, 1, 4, 5), splat(gain + at));
      const g1 = f32x4.mul(i32x4.shuffle(yLow01, yLow23, 2, 3, 6, 7), splat(gain + at + 4));
      const g2 = f32x4.mul(i32x4.shuffle(yHigh01, yHigh23, 0, 1, 4, 5), splat(gain + at + 8));
      const g3 = f32x4.mul(i32x4.shuffle(yHigh01, yHigh23, 2, 3, 6, 7), splat(gain + at + 12));
      const h0 = f32x4.mul(f32x4.sub(i32x4.shuffle(xLow01, xLow23, 0, 1, 4, 5), m), inv);
      const h1 = f32x4.mul(f32x4.sub(i32x4.shuffle(xLow01, xLow23, 2, 3, 6, 7), m), inv);
      const h2 = f32x4.mul(f32x4.sub(i32x4.shuffle(xHigh01, xHigh23, 0, 1, 4, 5), m), inv);
      const h3 = f32x4.mul(f32x4.sub(i32x4.shuffle(xHigh01, xHigh23, 2, 3, 6, 7), m), inv);
      sum = f32x4.add(sum, g0);
      weighted = f32x4.add(weighted, f32x4.mul(g0, h0));
      sum = f32x4.add(sum, g1);
      weighted = f32x4.add(weighted, f32x4.mul(g1, h1));
      sum = f32x4.add(sum, g2);
      weighted = f32x4.add(weighted, f32x4.mul(g2, h2));
      sum = f32x4.add(sum, g3);
      weighted = f32x4.add(weighted, f32x4.mul(g3, h3));
    }
    for (; j < d; j++) {
      const at = <usize>j << 2;
      const g = f32x4.mul(gather4(y0, y1, y2, y3, at), splat(gain + at));
      const h = f32x4.mul(f32x4.sub(gather4(x0, x1, x2, x3, at), m), inv);
      sum = f32x4.add(sum, g);
      weighted = f32x4.add(weighted, f32x4.mul(g, h));
    }
    const gMean = f32x4.div(sum, count);
    const gxMean = f32x4.div(weighted, count);
    // Then row by row, in order (the column sums add rows in order).
    const out = dx + first;
    layerNormGradRow(x0, y0, gain, out, dGain, dBias, d, f32x4.extract_lane(m, 0), f32x4.extract_lane(inv, 0), f32x4.extract_lane(gMean, 0), f32x4.extract_lane(gxMean, 0));
    if (lanes > 1) layerNormGradRow(x1, y1, gain, out + rowBytes, dGain, dBias, d, f32x4.extract_lane(m, 1), f32x4.extract_lane(inv, 1), f32x4.extract_lane(gMean, 1), f32x4.extract_lane(gxMean, 1));
    if (lanes > 2) layerNormGradRow(x2, y2, gain, out + 2 * rowBytes, dGain, dBias, d, f32x4.extract_lane(m, 2), f32x4.extract_lane(inv, 2), f32x4.extract_lane(gMean, 2), f32x4.extract_lane(gxMean, 2));
    if (lanes > 3) layerNormGradRow(x3, y3, gain, out + 3 * rowBytes, dGain, dBias, d, f32x4.extract_lane(m, 3), f32x4.extract_lane(inv, 3), f32x4.extract_lane(gMean, 3), f32x4.extract_lane(gxMean, 3));
  }
}
