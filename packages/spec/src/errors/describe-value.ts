/** A short, safe description of a value for error messages (never the whole of a huge string). */
export function describeValue(value: unknown, maxLength = 80): string {
  if (typeof value === 'string') {
    const shown = value.length > maxLength ? `${value.slice(0, maxLength)}… (${value.length} chars)` : value;
    return JSON.stringify(shown);
  }
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return json.length > maxLength ? `${json.slice(0, maxLength)}…` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
