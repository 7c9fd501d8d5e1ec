/** Linear warm-up then cosine decay to `minimumRatio` × peak: the usual transformer schedule. */
export function warmupCosineLearningRate(
  step: number,
  settings: { peak: number; warmupSteps: number; totalSteps: number; minimumRatio?: number },
): number {
  const { peak, warmupSteps, totalSteps } = settings;
  const minimum = peak * (settings.minimumRatio ?? 0.1);
  if (step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
  const progress = Math.min(1, (step - warmupSteps) / Math.max(1, totalSteps - warmupSteps));
  return minimum + 0.5 * (peak - minimum) * (1 + Math.cos(Math.PI * progress));
}
