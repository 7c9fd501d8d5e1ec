import { IMAGE_PLACEHOLDER, type EnvInfo, type Observation } from '@saccade/spec';

/** VAGEN's serialised PIL image. */
export interface VagenImage {
  __pil_image__: string;
}

/** VAGEN's observation: text with placeholders and the images under the placeholder key. */
export interface VagenObservation {
  obs_str: string;
  multi_modal_data?: Record<string, VagenImage[]>;
}

/** Metrics VAGEN reports per trajectory; every other metric is a turn metric. */
export const TRAJECTORY_METRICS: readonly string[] = ['success'];

/**
 * `{text, images}` → `{obs_str, multi_modal_data: {"<image>": [{__pil_image__: base64}]}}`. The
 * bytes are the env's encoded file (PNG for every built-in env): PIL opens PNG, JPEG and WebP alike.
 */
export function toVagenObservation(observation: Observation, placeholder = IMAGE_PLACEHOLDER): VagenObservation {
  const text = vagenObservationText(observation, placeholder);
  if (observation.images.length === 0) return { obs_str: text };
  return {
    obs_str: text,
    multi_modal_data: { [placeholder]: observation.images.map((image) => ({ __pil_image__: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64') })) },
  };
}

/** The observation's text with VAGEN's image placeholder (`<image>` unless a config names another). */
export function vagenObservationText(observation: Observation, placeholder = IMAGE_PLACEHOLDER): string {
  return placeholder === IMAGE_PLACEHOLDER ? observation.text : observation.text.replaceAll(IMAGE_PLACEHOLDER, placeholder);
}

/**
 * Saccade's info → the info of VAGEN's GymImageEnv (its main branch): VAGEN's `metrics` split as
 * `toVagenInfo` makes it, and `success`, the flag its agent loops read to end an episode and log.
 */
export function toGymInfo(info: EnvInfo): Record<string, unknown> {
  const success = info.metrics?.success;
  return { ...toVagenInfo(info), success: success === true || success === 1 };
}

/**
 * Saccade's info → VAGEN's: `metrics` becomes `{turn_metrics, traj_metrics}` (`success` is a
 * trajectory metric, the rest are turn metrics, e.g. `action_is_valid`, `action_is_effective`);
 * other keys (`rewardTerms`, `state`, …) pass through.
 */
export function toVagenInfo(info: EnvInfo): Record<string, unknown> {
  const { metrics = {}, ...rest } = info;
  const turn: Record<string, number | boolean> = {};
  const trajectory: Record<string, number | boolean> = {};
  for (const [name, value] of Object.entries(metrics)) (TRAJECTORY_METRICS.includes(name) ? trajectory : turn)[name] = value;
  return { ...rest, metrics: { turn_metrics: turn, traj_metrics: trajectory } };
}
