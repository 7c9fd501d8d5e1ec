/** A metrics row's value at `key` when it is a finite number, else undefined (progress lines leave such values out). */
export function metricNumber(metrics: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
