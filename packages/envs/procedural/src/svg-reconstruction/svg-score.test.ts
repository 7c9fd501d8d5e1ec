import { decodeImage, renderSvg } from '@saccade/image';
import { describe, expect, it } from 'vitest';
import { SvgReconstructionEnv } from './svg-reconstruction-env';
import { createSvgReconstructionSource, SVG_SIZE } from './svg-reconstruction-generator';
import { ssim, toGray } from './ssim';
import { perceptualSimilarity, reconstructionScore, structuralSimilarity } from './svg-score';
import { parseColour, readSvgShapes } from './svg-shapes';

const render = async (svg: string) => decodeImage(await renderSvg(svg, { width: SVG_SIZE, height: SVG_SIZE }), { channels: 3 });
const BLANK = `<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_SIZE}" height="${SVG_SIZE}"/>`;

/** The degradations of a target the ranking table is about, built from its shapes' markup. */
function degradations(target: string): Record<string, string> {
  const shapes = [...target.matchAll(/<(rect|circle|ellipse|polygon) [^>]*\/>/g)].map((match) => match[0]).slice(1); // [0] is the background
  const head = target.slice(0, target.indexOf(shapes[0]!));
  const build = (list: string[]) => `${head}${list.join('')}</svg>`;
  const move = (markup: string, by: number) =>
    markup.replace(/ (x|cx)="(\d+)"/, (_, name: string, value: string) => ` ${name}="${Number(value) + by}"`).replace(/points="([^"]*)"/, (_, points: string) => `points="${points.split(' ').map((point) => point.split(',').map((value, axis) => Number(value) + (axis === 0 ? by : 0)).join(',')).join(' ')}"`);
  const moved = (by: number) => build([...shapes.slice(0, -1), move(shapes.at(-1)!, by)]);
  const fills = shapes.map((shape) => /fill="([^"]*)"/.exec(shape)![1]!);
  // A fixed scribble: one black polyline through 12 points.
  const points = [[20, 30], [200, 40], [60, 220], [230, 180], [128, 10], [10, 128], [240, 240], [90, 90], [170, 60], [40, 180], [210, 120], [120, 230]];
  return {
    exact: target,
    'moved 5 px': moved(5),
    'moved 10 px': moved(10),
    'moved 20 px': moved(20),
    'one missing': build(shapes.slice(0, -1)),
    'colours swapped': build(shapes.map((shape, index) => shape.replace(fills[index]!, fills[(index + 1) % fills.length]!))),
    scribble: `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><path d="M ${points.map(([x, y]) => `${x} ${y}`).join(' L ')}" stroke="#000000" stroke-width="4" fill="none"/></svg>`,
    blank: BLANK,
  };
}

async function table(difficulty: number, index: number) {
  const target = String((await createSvgReconstructionSource({ difficulty }).get(index)).answer);
  const targetImage = await render(target);
  const rows: Record<string, { score: number; structural: number; perceptual: number; ssim: number }> = {};
  for (const [name, svg] of Object.entries(degradations(target))) {
    const image = await render(svg);
    const { score, structural, perceptual } = reconstructionScore({ svg: target, image: targetImage }, { svg, image });
    const round = (value: number) => Math.round(value * 1000) / 1000;
    rows[name] = { score: round(score), structural: round(structural), perceptual: round(perceptual), ssim: round(Math.max(0, ssim(toGray(targetImage), toGray(image)))) };
  }
  if (process.env.SVG_TABLE) console.log(JSON.stringify(rows));
  return rows;
}

const ORDER = ['exact', 'moved 5 px', 'moved 10 px', 'moved 20 px', 'one missing', 'colours swapped', 'scribble', 'blank'];

describe('SVG reconstruction score', () => {
  it('ranks degradations of a two-shape target as a person would (the table in docs/procedural.md)', async () => {
    const rows = await table(0.25, 0);
    expect(Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, row.score]))).toEqual({
      exact: 1,
      'moved 5 px': 0.953,
      'moved 10 px': 0.907,
      'moved 20 px': 0.82,
      'one missing': 0.503,
      'colours swapped': 0.464,
      scribble: 0.018,
      blank: 0,
    });
    const scores = ORDER.map((name) => rows[name]!.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(rows.blank!.score).toBeLessThan(0.1);
    // The old score could not tell a blank canvas from the right shapes moved 20 px.
    expect(rows.blank!.ssim).toBeGreaterThan(0.8);
    expect(rows['colours swapped']!.ssim).toBeGreaterThan(rows['moved 5 px']!.ssim);
  });

  it('ranks degradations of a five-shape target the same way', async () => {
    const rows = await table(1, 0);
    expect(Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, row.score]))).toEqual({
      exact: 1,
      'moved 5 px': 0.971,
      'moved 10 px': 0.943,
      'moved 20 px': 0.895,
      'one missing': 0.832,
      'colours swapped': 0.335,
      scribble: 0.023,
      blank: 0,
    });
    const scores = ORDER.map((name) => rows[name]!.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('falls monotonically as a shape moves, shrinks or changes colour', async () => {
    const target = '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect x="60" y="60" width="80" height="80" fill="#e02020"/></svg>';
    const targetImage = await render(target);
    const score = async (svg: string) => reconstructionScore({ svg: target, image: targetImage }, { svg, image: await render(svg) }).score;
    const rect = (x: number, size: number, fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect x="${x}" y="60" width="${size}" height="${size}" fill="${fill}"/></svg>`;
    const shifts = await Promise.all([0, 4, 8, 16, 32, 64, 120].map((by) => score(rect(60 + by, 80, '#e02020'))));
    const sizes = await Promise.all([80, 70, 60, 40, 20].map((size) => score(rect(60, size, '#e02020'))));
    const colours = await Promise.all(['#e02020', '#c04040', '#a06060', '#808080', '#2050e0'].map((fill) => score(rect(60, 80, fill))));
    for (const series of [shifts, sizes, colours]) {
      expect(series[0]).toBe(1);
      for (let i = 1; i < series.length; i++) expect(series[i]!).toBeLessThan(series[i - 1]!);
    }
    expect(shifts.at(-1)).toBeLessThan(0.1);
  });

  it('reads shapes through groups, transforms, styles and a viewBox; extra shapes cost', () => {
    const shapes = readSvgShapes('<svg viewBox="0 0 128 128" width="512"><defs><rect width="5" height="5"/></defs><g fill="red" transform="translate(10 20)"><circle cx="10" cy="10" r="5"/><rect x="0" y="0" width="4" height="4" style="fill: rgb(0, 0, 255)"/></g><polygon points="0,0 10,0 5,8" fill="#0f0"/><line x1="0" y1="0" x2="3" y2="4" stroke="black"/><path d="m 1 1 l 3 3" fill="black"/></svg>', 256);
    expect(shapes).toEqual([
      { family: 'ellipse', colour: [255, 0, 0], box: [30, 50, 50, 70] },
      { family: 'rect', colour: [0, 0, 255], box: [20, 40, 28, 48] },
      { family: 'polygon', colour: [0, 255, 0], box: [0, 0, 20, 16] },
      { family: 'line', colour: [0, 0, 0], box: [0, 0, 6, 8] },
      { family: 'path', colour: [0, 0, 0], box: undefined },
    ]);
    expect([parseColour('#E02020'), parseColour('none'), parseColour('rgb(100%, 0%, 50%)'), parseColour('chartreuse-ish')]).toEqual([[224, 32, 32], null, [255, 0, 128], undefined]);
    const target = '<svg width="256" height="256"><rect width="256" height="256" fill="#fff"/><rect x="10" y="10" width="50" height="50" fill="#e02020"/></svg>';
    expect(structuralSimilarity(target, '<svg width="256" height="256"><rect x="10" y="10" width="50" height="50" fill="#e02020"/></svg>', 256)).toBe(1);
    expect(structuralSimilarity(target, '<svg width="256" height="256"><rect x="10" y="10" width="50" height="50" fill="#e02020"/><circle cx="200" cy="200" r="9"/></svg>', 256)).toBe(0.5);
    expect(structuralSimilarity(target, '<svg width="256" height="256"><circle cx="35" cy="35" r="25" fill="#e02020"/></svg>', 256)).toBe(0.5);
    expect(structuralSimilarity(target, BLANK, 256)).toBe(0);
  });

  it('refuses renders of another size', async () => {
    const image = await render(BLANK);
    expect(() => perceptualSimilarity(image, { data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 })).toThrow(/expected an image of 256 × 256/);
  });

  it('the env rewards with the reconstruction score by default and keeps SSIM by name', async () => {
    const blankAnswer = `<answer>${BLANK}</answer>`;
    const env = new SvgReconstructionEnv({ difficulty: 0.25 });
    await env.reset({ seed: 3 });
    const blank = await env.step(blankAnswer);
    expect(blank).toMatchObject({ reward: 0.5, info: { rewardTerms: { format: 0.5, similarity: 0 }, metrics: { similarity: 0, structural: 0, perceptual: 0 } } });
    expect((blank.info.metrics as { ssim: number }).ssim).toBeGreaterThan(0.8);
    const old = new SvgReconstructionEnv({ difficulty: 0.25, similarity: 'ssim' });
    await old.reset({ seed: 3 });
    const oldBlank = await old.step(blankAnswer);
    expect((oldBlank.info.rewardTerms as { similarity: number }).similarity).toBe((blank.info.metrics as { ssim: number }).ssim);
    expect(() => new SvgReconstructionEnv({ similarity: 'dreamsim' as 'ssim' })).toThrow(/expected one of reconstruction, ssim/);
  });
});
