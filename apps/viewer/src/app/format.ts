export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export function number(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : Number(value.toPrecision(4)).toString();
}
