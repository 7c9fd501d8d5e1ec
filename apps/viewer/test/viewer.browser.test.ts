import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../src/index';
import { launchChromium } from './browser';
import { IMAGE, makeRun, squareOf, zoomBoxOf, type TestRun } from './make-run';
import { writeMctsTree } from './mcts-tree';
import { MARGIN, makeSegmentRun } from './segment-run';
import { makeTrainingRun, right, WRONG } from './training-run';

const appDirectory = fileURLToPath(new URL('../dist/app', import.meta.url));
/** Screenshots are test artifacts (docs/viewer.md shows them). */
const artifacts = fileURLToPath(new URL('../.test-results/screenshots', import.meta.url));

describe('saccade view in Chromium', () => {
  let folder: string;
  let run: TestRun;
  let viewer: Viewer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    folder = mkdtempSync(join(tmpdir(), 'saccade-viewer-'));
    // Seeds 0 … 8: 0, 3, 6 answer wrong after a zoom; 4 answers right without a tool.
    run = await makeRun(folder, 'colour-eval', [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    viewer = await startViewer({ path: folder, appDirectory });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
    await run?.store.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('lists the runs with env, agent, status and success', async () => {
    await page.goto(viewer.url);
    const row = page.locator('tr[data-run="colour-eval"]');
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    // 6 of 9 right; Wilson 95% interval of 6/9.
    expect(cells).toEqual(['colour-eval', 'eval', 'viewertest/ColourSquare-v1', 'scripted-zoomer', 'running', '9', '66.7%', '35.4% – 87.9%', '8']);
    await page.screenshot({ path: join(artifacts, 'runs.png') });
  });

  it('filters to failures, opens an episode with a zoom call and draws the box where the call put it', async () => {
    await page.locator('a', { hasText: 'colour-eval' }).click();
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('9 of 9 episodes');
    await page.getByLabel('outcome').selectOption('failure');
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('3 of 9 episodes');
    // Listed in the order the run stored them (episodes end in any order when played concurrently).
    const seeds = await page.locator('.episode-row .seed').allInnerTexts();
    expect(seeds.sort()).toEqual(['seed 0', 'seed 3', 'seed 6']);

    await page.locator('.episode-row', { hasText: 'seed 3' }).click();
    const turn = page.locator('[data-testid="turn"][data-turn="0"]');
    await turn.getByTestId('tool-calls').waitFor();
    expect(await turn.locator('[data-part="tool_call"]').count()).toBe(1);
    const box = turn.locator('[data-testid="mark-box"]');
    expect(await box.getAttribute('data-box')).toBe(zoomBoxOf(3).join(','));
    // The drawn rectangle, in screen pixels, against the image it is drawn on.
    const image = turn.locator('.observation .marked-image img').first();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(IMAGE.width);
    const imageBox = (await image.boundingBox())!;
    const rectBox = (await box.locator('rect').boundingBox())!;
    const scale = imageBox.width / IMAGE.width;
    const [x1, y1, x2, y2] = zoomBoxOf(3);
    // The stroke straddles the rectangle's edge: the box grows by half a stroke (1 px) on each side.
    expect(Math.abs(rectBox.x - (imageBox.x + x1 * scale))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(rectBox.y - (imageBox.y + y1 * scale))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(rectBox.x + rectBox.width - (imageBox.x + x2 * scale))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(rectBox.y + rectBox.height - (imageBox.y + y2 * scale))).toBeLessThanOrEqual(1.5);
    // The crop the tool returned sits beside its source, at the box's size.
    const crop = turn.locator('.observation figure', { hasText: 'result of call 1' });
    expect(await crop.locator('figcaption').innerText()).toBe(`result of call 1 · ${x2 - x1}×${y2 - y1}`);
    // The answer turn: wrong colour, reward terms shown.
    const answer = page.locator('[data-testid="turn"][data-turn="1"]');
    expect(await answer.locator('[data-part="answer"]').textContent()).toBe('answerpurple');
    expect(await answer.locator('.reward-terms').innerText()).toBe('correct\t0\nformat\t0.1');
    await turn.locator('.observation .marked-image').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'episode-zoom.png') });

    // Keyboard: j moves to the next failure.
    const rows = await page.locator('.episode-row').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-episode')));
    const open = await page.getByTestId('episode').getAttribute('data-episode');
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('episode').getAttribute('data-episode')).toBe(rows[(rows.indexOf(open) + 1) % rows.length === 0 ? rows.length - 1 : rows.indexOf(open) + 1]);
  });

  it('shows the token sequence with loss and advantage masks', async () => {
    await page.getByTestId('tokens').locator('summary').click();
    await page.locator('.token-text').waitFor();
    const summary = await page.getByTestId('tokens').locator('p.muted').innerText();
    expect(summary).toMatch(/^saccade-character: \d+ tokens, \d+ with loss\. no group: no advantage value\./);
    expect(await page.locator('.token.loss').count()).toBeGreaterThan(20);
    expect(await page.locator('.token.image').count()).toBe(2);
  });

  it('shows an episode the run appends while the page is open', async () => {
    await page.getByLabel('outcome').selectOption('all');
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('9 of 9 episodes');
    await run.play([9, 10]);
    await expect.poll(() => page.getByTestId('shown-count').innerText(), { timeout: 5000 }).toBe('11 of 11 episodes');
    expect(await page.getByTestId('episode-count').innerText()).toBe('11');
    await page.getByLabel('search').fill('purple');
    // Seeds 0, 3, 6 and 9 answered "purple".
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('4 of 11 episodes');
    await page.getByLabel('search').fill('');
    await page.getByRole('button', { name: /curves/ }).click();
    await expect.poll(() => page.getByTestId('chart').count()).toBe(1);
    await page.screenshot({ path: join(artifacts, 'curves.png') });
  });

  it('shows the MCTS trees of a data generate output as a tree', async () => {
    writeMctsTree(join(folder, 'vs-data'));
    await page.goto(`${viewer.url}#/run/vs-data`);
    await page.getByRole('button', { name: 'MCTS trees' }).click();
    await page.getByTestId('tree-list').getByRole('button', { name: /visual-search-7 · 4 nodes · value 0.5/ }).click();
    await expect.poll(() => page.getByTestId('tree-node').count()).toBe(4);
    const steps = await page.locator('[data-testid="tree-node"] .node-step').allTextContents();
    expect(steps).toEqual(['(root)', 'No ring around (1314, 1263).', 'A green ring at (400, 380).', 'A green ring at (410, 390).']);
    await page.screenshot({ path: join(artifacts, 'mcts-tree.png') });
  });

  it("lists a training run's stored GRPO step by phase, step and group, and shows the trainer's masks and advantages per token", async () => {
    const { endToken } = await makeTrainingRun(folder, 'grpo-train', 410);
    await page.goto(`${viewer.url}#/run/grpo-train`);
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('4 of 4 episodes');
    expect(await page.getByLabel('phase').locator('option').allInnerTexts()).toEqual(['all', 'GRPO', 'trained on', 'left out of the update']);
    expect(await page.getByLabel('step').locator('option').allInnerTexts()).toEqual(['all', '410']);
    expect(await page.getByLabel('group').locator('option').allInnerTexts()).toEqual(['all', 's410-0', 's410-1']);
    // Each row: GRPO's advantage, (1 − 0.5) / (std + 1e-6) = ±0.7071 for the varied group (sample std √½), 0 for the uniform one.
    expect(await page.locator('.episode-row .advantage').allInnerTexts()).toEqual(['A 0.7071', 'A -0.7071', 'A 0', 'A 0']);
    await page.getByLabel('phase').selectOption('left-out');
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('2 of 4 episodes');
    await page.getByLabel('phase').selectOption('');
    await page.getByLabel('group').selectOption('s410-0');
    await expect.poll(() => page.getByTestId('shown-count').innerText()).toBe('2 of 4 episodes');

    await page.locator('.episode-row').first().click();
    expect(await page.getByTestId('training-facts').innerText()).toBe('GRPO · step 410 · score 1 · advantage 0.7071 · trained on');
    const sequence = page.getByTestId('trained-sequence');
    await expect.poll(() => sequence.count()).toBe(1);
    // The trained tokens are the response and the end token, one span each, with the episode's advantage.
    const trained = sequence.locator('.token.loss');
    expect((await trained.allInnerTexts()).join('')).toBe(`${right(0)}${endToken}`);
    expect(await trained.first().getAttribute('title')).toBe('turn 0 · loss · advantage 0.7071');
    expect(await sequence.locator('.token.loss.positive').count()).toBe(await trained.count());
    expect(await sequence.locator('.token.image').allInnerTexts()).toEqual(['[image 1: 17 tokens]']);
    await sequence.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'episode-training.png') });

    await page.locator('.episode-row').nth(1).click();
    await expect.poll(() => page.getByTestId('training-facts').innerText()).toBe('GRPO · step 410 · score 0 · advantage -0.7071 · trained on');
    expect((await page.getByTestId('trained-sequence').locator('.token.loss.negative').allInnerTexts()).join('')).toBe(`${WRONG}${endToken}`);
    await page.getByLabel('group').selectOption('s410-1');
    await page.locator('.episode-row').first().click();
    await expect.poll(() => page.getByTestId('training-facts').innerText()).toBe('GRPO · step 410 · score 0 · advantage 0 · not trained on (uniform-group)');
    expect(await page.getByTestId('trained-tokens').count()).toBe(0);
  });

  it('draws the masks of a segment call over the image it segmented, with score and area, and hides them on the toggle', async () => {
    await makeSegmentRun(folder, 'segment-eval', 2);
    await page.goto(`${viewer.url}#/run/segment-eval`);
    await page.locator('.episode-row').first().click();
    const turn = page.locator('[data-testid="turn"][data-turn="0"]');
    const figure = turn.locator('.observation figure').first();
    const layers = figure.getByTestId('mask-layer');
    await expect.poll(() => layers.count()).toBe(2);
    // The square is 60 × 60 at (234, 152); the second candidate reaches MARGIN further on each side.
    const { x, y, size } = squareOf(2);
    expect([x, y, size, MARGIN]).toEqual([234, 152, 60, 10]);
    // Drawn last first: the best mask (the square) lies on top of the larger candidate.
    expect(await layers.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-area')))).toEqual(['6400', '3600']);
    expect(await figure.getByTestId('mask-caption').allInnerTexts()).toEqual(['call 1, mask 1: score 0.93 · area 3600 px (1.2%)', 'call 1, mask 2: score 0.71 · area 6400 px (2.1%)']);
    // The pixels drawn: [r, g, b, a] at the square's corner (its outline), its centre (inside), just
    // left of it, and the second mask's corner; then how many pixels each layer paints.
    const points: [number, number][] = [[x, y], [x + 30, y + 30], [x - 1, y], [x - MARGIN, y - MARGIN]];
    const drawn = await layers.evaluateAll(
      (elements, at) =>
        elements.map((element) => {
          const canvas = element as HTMLCanvasElement;
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          let painted = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
          return { size: [canvas.width, canvas.height], painted, at: at.map(([px, py]) => [...data.subarray((py * canvas.width + px) * 4, (py * canvas.width + px) * 4 + 4)]) };
        }),
      points,
    );
    // The canvas keeps its pixels premultiplied by alpha: at 40% (102) green 144 is stored as 58 and
    // reads back as 58 × 255 / 102 = 145; 30, 255, 140 and 0 come back as written.
    expect(drawn).toEqual([
      { size: [640, 480], painted: 6400, at: [[255, 140, 0, 102], [255, 140, 0, 102], [255, 140, 0, 102], [255, 140, 0, 255]] },
      { size: [640, 480], painted: 3600, at: [[30, 144, 255, 255], [30, 145, 255, 102], [0, 0, 0, 0], [0, 0, 0, 0]] },
    ]);
    // Each layer covers the image exactly, so mask pixel (x, y) lies on image pixel (x, y).
    const imageBox = (await figure.locator('img').boundingBox())!;
    for (const layer of await layers.all()) {
      const box = (await layer.boundingBox())!;
      expect([box.x, box.y, box.width, box.height].map((value, index) => Math.abs(value - [imageBox.x, imageBox.y, imageBox.width, imageBox.height][index]!))).toEqual([0, 0, 0, 0]);
    }
    await figure.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'episode-segment.png') });
    await figure.getByLabel('masks').uncheck();
    await expect.poll(() => layers.count()).toBe(0);
    await figure.getByLabel('masks').check();
    await expect.poll(() => layers.count()).toBe(2);
  });
});
