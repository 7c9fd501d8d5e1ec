import { describe, expect, it } from 'vitest';
import { SokobanEnv } from './sokoban-env';

const answer = (actions: string) => `<answer>${actions}</answer>`;
const ONE_BOX = ['######', '#____#', '#_XO_#', '#_P__#', '#____#', '######'].join('\n');
const TWO_BOXES = ['######', '#PXO_#', '#____#', '#_X__#', '#___O#', '######'].join('\n');

async function room(level: string) {
  const env = new SokobanEnv({ observation: 'text', format: 'no_think', level });
  await env.reset({ seed: 0 });
  return env;
}

describe('SokobanEnv scripted episodes', () => {
  it('solving: −0.1 per action, +1 box on target, +10 solved, +0.5 format', async () => {
    const env = await room(ONE_BOX);
    const result = await env.step(answer('Left, Up, Right'));
    expect(result.terminated).toBe(true);
    expect(result.reward).toBeCloseTo(11.2, 9);
    expect(result.info.rewardTerms).toEqual({ format: 0.5, step: -0.3, box: 1, solved: 10 });
    expect(result.info.metrics).toEqual({ action_is_valid: true, action_is_effective: true, success: true, format_correct: true });
    expect(result.observation.text).toContain('#_P√_#');
  });

  it('a box pushed onto a target and off it again', async () => {
    const env = await room(TWO_BOXES);
    const on = await env.step(answer('Right'));
    expect(on.info.rewardTerms).toEqual({ format: 0.5, step: -0.1, box: 1 });
    expect(on.reward).toBeCloseTo(1.4, 9);
    const off = await env.step(answer('Right'));
    expect(off.info.rewardTerms).toEqual({ format: 0.5, step: -0.1, box: -1 });
    expect(off.reward).toBeCloseTo(-0.6, 9);
    expect(off.terminated).toBe(false);
  });

  it('walking into a wall costs the step but is not effective', async () => {
    const env = await room(TWO_BOXES);
    const result = await env.step(answer('Up'));
    expect(result.info.rewardTerms).toEqual({ format: 0.5, step: -0.1 });
    expect(result.info.metrics).toEqual({ action_is_valid: true, action_is_effective: false, success: false, format_correct: true });
  });

  it('an invalid action and a bad format', async () => {
    const env = await room(ONE_BOX);
    const invalid = await env.step(answer('Left, Push'));
    expect(invalid.info.rewardTerms).toEqual({ format: 0, step: -0.1 });
    expect(invalid.info.metrics).toMatchObject({ action_is_valid: false, action_is_effective: true });
    const bad = await env.step('<think>x</think><answer>Up</answer>');
    expect(bad.info.rewardTerms).toEqual({ format: 0 });
    expect(bad.info.metrics).toMatchObject({ action_is_valid: false, action_is_effective: false });
  });
});

describe('SokobanEnv levels and images', () => {
  it('same seed, same level and PNG bytes; 6×6 room at 16 px per cell', async () => {
    const a = await new SokobanEnv().reset({ seed: 3 });
    const b = await new SokobanEnv().reset({ seed: 3 });
    expect(a.observation.images[0]).toMatchObject({ width: 96, height: 96, mediaType: 'image/png' });
    expect(Buffer.from(a.observation.images[0]!.data).equals(Buffer.from(b.observation.images[0]!.data))).toBe(true);
    const c = await new SokobanEnv().reset({ seed: 4 });
    expect(c.info.state).not.toEqual(a.info.state);
  });

  it('takes more boxes and a larger room', async () => {
    const env = new SokobanEnv({ observation: 'text', boxes: 2, width: 7, height: 7, maxSolutionSteps: 12 });
    const { info } = await env.reset({ seed: 5 });
    expect(info.state).toMatchObject({ rows: 7, cols: 7 });
    expect((info.state as { boxes: unknown[] }).boxes).toHaveLength(2);
  });

  it('the system prompt describes the picture in vision mode', () => {
    const prompt = new SokobanEnv().systemPrompt();
    expect(prompt).toMatch(/red rings are targets/);
    expect(prompt).not.toContain('Text symbols');
  });

  it('quotes a response holding <image> back without making it an image slot (vision observations)', async () => {
    const env = new SokobanEnv({ observation: 'vision', format: 'no_think', level: ONE_BOX });
    await env.reset({ seed: 0 });
    const result = await env.step('<answer>Up</answer><image>');
    expect(result.info.rewardTerms?.['format'] ?? 0).toBe(0);
    expect(result.observation.text).toContain('found text "‹image›"');
    // One placeholder per image: the quoted text added none.
    expect(result.observation.text.split('<image>').length - 1).toBe(result.observation.images.length);
    expect(result.terminated).toBe(false);
  });
});

