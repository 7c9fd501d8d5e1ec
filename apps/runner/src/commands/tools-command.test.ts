import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderSvg } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-tools-'));
const image = join(scratch, 'scene.png');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeAll(async () => {
  // 200 × 100, a red square at (20, 20)–(60, 60).
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#ffffff"/><rect x="20" y="20" width="40" height="40" fill="#ff0000"/></svg>';
  writeFileSync(image, (await renderSvg(svg)).data);
});

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('saccade tools', () => {
  test('list shows the built-in tools with their input schemas', async () => {
    const output = capture();
    expect((await runCli(['tools', 'list', '--json'], output)).exitCode).toBe(EXIT_SUCCESS);
    const tools = JSON.parse(output.out.join('')) as { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    expect(tools.map((tool) => tool.name)).toEqual(['calculator', 'detect', 'geometry', 'image_rotate_tool', 'image_zoom_in_tool', 'ocr', 'search_coordinate']);
    expect(Object.keys(tools.find((tool) => tool.name === 'image_zoom_in_tool')!.inputSchema.properties ?? {})).toContain('bbox_2d');
  });

  test('run zoom: the crop is summarised by size and hash, and written with --out', async () => {
    const output = capture();
    const out = join(scratch, 'out');
    const { exitCode } = await runCli(['tools', 'run', 'image_zoom_in_tool', '--input', '{"bbox_2d": [10, 10, 90, 70]}', '--image', image, '--out', out], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const result = JSON.parse(output.out.join('\n')) as { ok: boolean; text: string; images: { width: number; height: number; sha256: string; file: string }[] };
    expect(result.ok).toBe(true);
    expect(result.text).toBe('Zoomed in on [10, 10, 90, 70].');
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ width: 80, height: 60, mediaType: 'image/png' });
    expect(result.images[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(result.images[0]!.file)).toBe(true);
  });

  test('run detect and calculator: JSON results are parsed', async () => {
    const detect = capture();
    expect((await runCli(['tools', 'run', 'detect', '--image', image], detect)).exitCode).toBe(EXIT_SUCCESS);
    const found = JSON.parse(detect.out.join('\n')) as { json: { count: number; detections: { label: string; bbox: number[] }[] } };
    expect(found.json.count).toBe(1);
    expect(found.json.detections[0]).toMatchObject({ label: 'red square' });

    const calculator = capture();
    expect((await runCli(['tools', 'run', 'calculator', '--input', '{"expression": "sqrt(3^2 + 4^2)"}'], calculator)).exitCode).toBe(EXIT_SUCCESS);
    expect((JSON.parse(calculator.out.join('\n')) as { text: string }).text).toContain('5');
  });

  test.each([
    [['run', 'telescope'], 'No tool is registered with name "telescope"'],
    [['run', 'image_zoom_in_tool', '--input', '{bbox'], '--input: expected JSON'],
    [['run', 'image_zoom_in_tool', '--image', '/no/such.png'], '--image: /no/such.png does not exist'],
  ])('%j is a usage error', async (args, message) => {
    const output = capture();
    expect((await runCli(['tools', ...args], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(message);
  });

  test('bad arguments come back as JSON with kind invalid-arguments and exit code 2', async () => {
    const output = capture();
    const { exitCode } = await runCli(['tools', 'run', 'image_zoom_in_tool', '--input', '{"bbox_2d": "all"}', '--image', image], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(JSON.parse(output.out.join('\n'))).toMatchObject({ ok: false, kind: 'invalid-arguments' });
  });
});
