/** The best rational p/q with q ≤ maxDenominator for x (continued fractions), if it matches to 1e-9. */
export function toFraction(x: number, maxDenominator = 10_000): [number, number] | undefined {
  if (!Number.isFinite(x)) return undefined;
  const sign = x < 0 ? -1 : 1;
  let value = Math.abs(x);
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  for (let i = 0; i < 40; i++) {
    const a = Math.floor(value);
    const [h2, k2] = [a * h1 + h0, a * k1 + k0];
    if (k2 > maxDenominator) break;
    [h0, h1, k0, k1] = [h1, h2, k1, k2];
    if (Math.abs(h1 / k1 - Math.abs(x)) <= 1e-9 * Math.max(1, Math.abs(x))) return [sign * h1, k1];
    const rest = value - a;
    if (rest < 1e-12) break;
    value = 1 / rest;
  }
  return undefined;
}

const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));

/**
 * An exact form of x when it is a rational or a rational times a square root, as SymPy would
 * print it: `25/2`, `5*sqrt(2)`, `sqrt(3)/2`; otherwise undefined. Finds p/q close to x², then
 * takes the square root with the square factors pulled out.
 */
export function exactForm(x: number): string | undefined {
  const rational = toFraction(x, 1_000);
  if (rational !== undefined) return rational[1] === 1 ? String(rational[0]) : `${rational[0]}/${rational[1]}`;
  const square = toFraction(x * x, 1_000);
  if (square === undefined || square[0] <= 0 || square[0] * square[1] > 1e6) return undefined;
  // sqrt(p/q) = sqrt(p·q)/q = k·sqrt(m)/q
  let m = square[0] * square[1];
  let k = 1;
  for (let f = 2; f * f <= m; f++) {
    while (m % (f * f) === 0) {
      m /= f * f;
      k *= f;
    }
  }
  let q = square[1];
  const common = gcd(k, q);
  k /= common;
  q /= common;
  const sign = x < 0 ? '-' : '';
  const root = m === 1 ? String(k) : k === 1 ? `sqrt(${m})` : `${k}*sqrt(${m})`;
  return q === 1 ? `${sign}${root}` : `${sign}${root}/${q}`;
}
