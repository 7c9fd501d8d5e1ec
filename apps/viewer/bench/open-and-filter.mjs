/* global document */
// Bench: opening and filtering an eval run of 10,000 episodes in the browser (Debian's Chromium
// through playwright-core), against the built viewer (`pnpm build` first). Prints JSON.
//   node bench/open-and-filter.mjs [--episodes 10000] [--repeats 5]
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { contentHash, renderSvg } from '@saccade/image';
import { chromium } from 'playwright-core';
import { startViewer } from '../dist/index.js';

const { values } = parseArgs({ options: { episodes: { type: 'string', default: '10000' }, repeats: { type: 'string', default: '5' } } });
const episodes = Number(values.episodes);
const repeats = Number(values.repeats);
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path));
if (executablePath === undefined) {
  console.error('The bench needs Chromium: apt-get install -y chromium (or set CHROMIUM_PATH).');
  process.exit(1);
}

// An eval run in the trajectory store's format: 2-turn episodes (a zoom call, then an answer),
// 8 distinct images, 60% successes.
const folder = mkdtempSync(join(tmpdir(), 'saccade-viewer-bench-'));
const run = join(folder, 'eval-10k');
mkdirSync(join(run, 'trajectories', 'images'), { recursive: true });
const images = [];
for (let index = 0; index < 8; index++) {
  const image = await renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="100%" height="100%" fill="#ccc"/><rect x="${40 + index * 60}" y="100" width="60" height="60" fill="red"/></svg>`);
  const hash = contentHash(image.data);
  writeFileSync(join(run, 'trajectories', 'images', `${hash}.png`), image.data);
  images.push({ hash, mediaType: 'image/png', width: 640, height: 480 });
}
const lines = [];
let failures = 0;
for (let seed = 0; seed < episodes; seed++) {
  const success = seed % 5 < 3;
  if (!success) failures++;
  const box = [20 + (seed % 400), 80, 120 + (seed % 400), 180];
  const call = { name: 'image_zoom_in_tool', arguments: { bbox_2d: box }, ok: true, durationMs: 12, images: 1 };
  lines.push(
    JSON.stringify({
      id: `bench-${seed}`,
      envId: seed % 2 === 0 ? 'saccade/VisionQA-v1' : 'saccade/ChartQA-v1',
      seed,
      agentId: 'Qwen/Qwen2.5-VL-7B-Instruct',
      turns: [
        {
          observation: { text: '<image>\nWhat colour is the square?', images: [images[seed % 8]] },
          action: `<think>Look closer at episode ${seed}.</think>\n<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [${box.join(', ')}]}}</tool_call>`,
          reward: 0, rewardTerms: {}, terminated: false, truncated: false,
          info: { toolCalls: [call], metrics: { action_is_valid: true } }, timing: { agentMs: 800, envMs: 12 },
        },
        {
          observation: { text: '<tool_response>\nZoomed in.\n<image>\n</tool_response>', images: [images[(seed + 1) % 8]] },
          action: `<think>It is ${success ? 'red' : 'purple'}.</think>\n<answer>${success ? 'red' : 'purple'}</answer>`,
          reward: success ? 1 : 0, rewardTerms: { correct: success ? 1 : 0 }, terminated: true, truncated: false,
          info: { metrics: { success, action_is_valid: true } }, timing: { agentMs: 700, envMs: 1 },
        },
      ],
      totalReward: success ? 1 : 0, terminated: true, truncated: false,
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seed)).toISOString(),
      metadata: { evalSeed: seed, sample: 0 },
    }),
  );
}
writeFileSync(join(run, 'trajectories', 'episodes.jsonl'), `${lines.join('\n')}\n`);
writeFileSync(join(run, 'events.jsonl'), `${JSON.stringify({ type: 'run-start', time: new Date().toISOString(), runName: 'eval-10k' })}\n`);

const viewer = await startViewer({ path: folder });
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10) / 10;
const shown = (page, text) => page.waitForFunction((expected) => document.querySelector('[data-testid="shown-count"]')?.textContent === expected, text, { polling: 'raf', timeout: 30_000 });

// The list's request alone, from Node: the first indexes the file, the next ones read the index.
const api = [];
for (let repeat = 0; repeat < 3; repeat++) {
  const start = performance.now();
  const body = await (await fetch(`${viewer.url}api/runs/eval-10k/episodes?after=0`)).text();
  api.push({ ms: performance.now() - start, bytes: body.length });
}
const open = [];
const breakdown = [];
const filterFailures = [];
const filterBack = [];
const search = [];
try {
  for (let repeat = 0; repeat < repeats; repeat++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Open: from navigation to the list showing every episode (the first repeat indexes the file on the server).
    let start = performance.now();
    await page.goto(`${viewer.url}#/run/eval-10k`);
    await shown(page, `${episodes} of ${episodes} episodes`);
    await page.locator('.episode-row').first().waitFor();
    open.push(performance.now() - start);
    // Where the open's time went, from the page's own timings.
    breakdown.push(
      await page.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0];
        const list = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/episodes?after=0'));
        return { domContentLoaded: navigation?.domContentLoadedEventEnd ?? -1, listRequestStart: list?.startTime ?? -1, listResponseEnd: list?.responseEnd ?? -1, now: performance.now() };
      }),
    );
    // Filter to failures and back, from the change to the count on screen.
    start = performance.now();
    await page.getByLabel('outcome').selectOption('failure');
    await shown(page, `${failures} of ${episodes} episodes`);
    filterFailures.push(performance.now() - start);
    start = performance.now();
    await page.getByLabel('outcome').selectOption('all');
    await shown(page, `${episodes} of ${episodes} episodes`);
    filterBack.push(performance.now() - start);
    // Text search over the model's output (on the server), including the 150 ms typing pause.
    start = performance.now();
    await page.getByLabel('search').fill('purple');
    await shown(page, `${failures} of ${episodes} episodes`);
    search.push(performance.now() - start);
    await page.close();
  }
} finally {
  await browser.close();
  await viewer.close();
  rmSync(folder, { recursive: true, force: true });
}
console.log(
  JSON.stringify(
    {
      bench: 'viewer-open-and-filter',
      browser: `${executablePath} (${browser.version()})`,
      episodes,
      failures,
      fileMegabytes: round(lines.reduce((sum, line) => sum + line.length + 1, 0) / 1e6),
      repeats,
      apiEpisodesColdMs: round(api[0].ms),
      apiEpisodesWarmMs: round(api[2].ms),
      apiEpisodesMegabytes: round(api[2].bytes / 1e6),
      openMs: round(open[0]),
      openMedianMs: round(median(open)),
      filterFailuresMedianMs: round(median(filterFailures)),
      filterAllMedianMs: round(median(filterBack)),
      textSearchMedianMs: round(median(search)),
      textSearchNote: 'includes the 150 ms pause the page waits after typing',
      openBreakdownMs: breakdown.map((entry) => Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, round(value)]))),
      timesMs: { open: open.map(round), filterFailures: filterFailures.map(round), filterAll: filterBack.map(round), textSearch: search.map(round) },
    },
    null,
    2,
  ),
);
