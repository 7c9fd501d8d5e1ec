/** Linear warm-up then cosine decay to `minimumRatio` × peak: the usual transformer schedule. */
export function warmupCosineLearningRate(
  step: number,
  settings: { peak: number; warmupSteps: number; totalSteps: number; minimumRatio?: number },
): number {
  const { peak, warmupSteps, totalSteps } = settings;
  const minimum = peak * (settings.minimumRatio ?? 0.1);
  if (step < warmupSteps) return warmupConstantLearningRate(step, { peak, warmupSteps });
  const progress = Math.min(1, (step - warmupSteps) / Math.max(1, totalSteps - warmupSteps));
  return minimum + 0.5 * (peak - minimum) * (1 + Math.cos(Math.PI * progress));
}

/**
 * Linear warm-up to `peak` over `warmupSteps` (phase steps from 0), then constant: verl's actor
 * schedule with `lr_warmup_steps`. 0 warm-up steps: `peak` from the first step.
 */
export function warmupConstantLearningRate(step: number, settings: { peak: number; warmupSteps: number }): number {
  const { peak, warmupSteps } = settings;
  return step < warmupSteps ? (peak * (step + 1)) / warmupSteps : peak;
}
