import { checkEnv } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { COLOURS, type ColourName } from '../common/palette';
import { components, indices, pixelsOf } from '../../test/pixels';
import { ssim, toGray } from './ssim';
import { SvgReconstructionEnv } from './svg-reconstruction-env';
import { createSvgReconstructionSource, SVG_SIZE } from './svg-reconstruction-generator';
import { decodeImage } from '@saccade/image';

describe('svg reconstruction', () => {
  it('the stored SVG renders to the target exactly, and the top shape covers its stated area (20 seeds)', async () => {
    const source = createSvgReconstructionSource({ difficulty: 0.8 });
    for (const index of indices(20)) {
      const task = await source.get(index);
      const target = await decodeImage(task.images[0] as ImageData, { channels: 3 });
      const again = await decodeImage(await renderSvg(String(task.answer), { width: SVG_SIZE, height: SVG_SIZE }), { channels: 3 });
      expect(ssim(toGray(target), toGray(again))).toBe(1);
      const shapes = task.metadata!.shapes as { kind: string; colour: ColourName; area: number }[];
      const top = shapes.at(-1)!;
      const pixels = await pixelsOf(task.images[0] as ImageData);
      const covered = components(pixels, COLOURS[top.colour]).reduce((sum, blob) => sum + blob.count, 0);
      // Edge pixels are blended (not the exact colour): allow about a perimeter's worth.
      expect(Math.abs(covered - top.area), `${task.id}: ${top.kind} of area ${top.area}`).toBeLessThanOrEqual(6 * Math.sqrt(top.area));
    }
  });

  it('rewards the oracle with format + similarity 1 and ends the episode', async () => {
    const env = new SvgReconstructionEnv({ difficulty: 0.5 });
    const { observation } = await env.reset({ seed: 4 });
    expect(observation.images).toHaveLength(1);
    const result = await env.step(`I draw the shapes.\n${env.oracleResponse()}`);
    expect(result).toMatchObject({ reward: 1.5, terminated: true, truncated: false, info: { rewardTerms: { format: 0.5, similarity: 1 }, metrics: { success: true } } });
    expect(result.observation.images[0]!.data).toEqual(observation.images[0]!.data);
  });

  it('finds the SVG after characters whose lower case is longer (İ)', async () => {
    const env = new SvgReconstructionEnv({ difficulty: 0.5 });
    await env.reset({ seed: 4 });
    const svg = String(env.task.answer);
    const result = await env.step(`<answer>İİİİİİİİ ${svg} drawn</answer>`);
    expect(result).toMatchObject({ terminated: true, info: { rewardTerms: { format: 0.5, similarity: 1 }, metrics: { success: true } } });
  });

  it('shows a blank canvas for unreadable or unsafe SVG, and truncates after the last turn', async () => {
    const env = new SvgReconstructionEnv({ maxTurns: 2 });
    await env.reset({ seed: 1 });
    const first = await env.step('<answer>no svg here</answer>');
    expect(first).toMatchObject({ reward: 0, terminated: false, truncated: false, info: { rewardTerms: { format: 0, similarity: 0 } } });
    expect(first.observation.text).toMatch(/expected an <svg …>…<\/svg> document/);
    const second = await env.step('<answer><svg width="10" height="10"><image href="http://example.com/x.png"/></svg></answer>');
    expect(second).toMatchObject({ reward: 0, terminated: false, truncated: true });
    expect(second.info.formatError).toMatch(/could not be rendered/);
    await expect(env.step('<answer><svg/></answer>')).rejects.toThrow(/the episode has ended/);
  });

  it('scores a close attempt between a blank one and the target, without xmlns too', async () => {
    const env = new SvgReconstructionEnv({ difficulty: 0 });
    await env.reset({ seed: 2 });
    const target = String(env.task.answer);
    const blank = await env.step('<answer><svg width="256" height="256"/></answer>');
    expect(blank.info.rewardTerms).toMatchObject({ format: 0.5 });
    await env.reset({ seed: 2 });
    const shifted = target.replace(/<(rect|circle) ([^>]*?)(x|cx)="(\d+)"/, (_, tag, rest, name, value) => `<${tag} ${rest}${name}="${Number(value) + 6}"`).replace(' xmlns="http://www.w3.org/2000/svg"', '');
    const close = await env.step(`<answer>${shifted}</answer>`);
    expect(close.info.rewardTerms).toMatchObject({ format: 0.5 });
    const similarity = (close.info.metrics as { similarity: number }).similarity;
    expect(similarity).toBeGreaterThan((blank.info.metrics as { similarity: number }).similarity);
    expect(similarity).toBeLessThan(1);
  });

  it('passes checkEnv with a bad answer then the oracle', async () => {
    const probe = new SvgReconstructionEnv();
    await probe.reset({ seed: 0 });
    const report = await checkEnv(() => new SvgReconstructionEnv(), { actions: ['<answer><svg></svg></answer>', probe.oracleResponse()] });
    expect(report.failures).toEqual([]);
  });

  it('difficulty adds shapes', () => {
    const count = (difficulty: number) => (createSvgReconstructionSource({ difficulty }).generate(0).metadata.shapes as unknown[]).length;
    expect([count(0), count(0.5), count(1)]).toEqual([1, 3, 5]);
  });
});
