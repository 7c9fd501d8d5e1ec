import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSvg } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findToolPackages } from '../builtin-tools';
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
    const names = tools.map((tool) => tool.name);
    // Sorted by name; the zoom package adds tools of its own as it grows.
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
    expect(names).toEqual(expect.arrayContaining(['calculator', 'colour_blobs', 'detect', 'geometry', 'image_rotate_tool', 'image_zoom_in_tool', 'ocr', 'python_code', 'remote-model', 'remote-vlm', 'search_coordinate', 'segment']));
    expect(Object.keys(tools.find((tool) => tool.name === 'image_zoom_in_tool')!.inputSchema.properties ?? {})).toContain('bbox_2d');
    // With no SAM model folder configured, segment is listed as not usable.
    if (!process.env['SACCADE_SEGMENT_MODEL']) expect((tools.find((tool) => tool.name === 'segment') as { description?: string } | undefined)?.description).toMatch(/^Not usable: no SAM model is configured/);
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

  test('run colour_blobs and calculator: JSON results are parsed', async () => {
    const detect = capture();
    expect((await runCli(['tools', 'run', 'colour_blobs', '--image', image], detect)).exitCode).toBe(EXIT_SUCCESS);
    const found = JSON.parse(detect.out.join('\n')) as { json: { count: number; detections: { label: string; bbox: number[] }[] } };
    expect(found.json.count).toBe(1);
    expect(found.json.detections[0]).toMatchObject({ label: 'red square' });

    const calculator = capture();
    expect((await runCli(['tools', 'run', 'calculator', '--input', '{"expression": "sqrt(3^2 + 4^2)"}'], calculator)).exitCode).toBe(EXIT_SUCCESS);
    expect((JSON.parse(calculator.out.join('\n')) as { text: string }).text).toContain('5');
  });

  test('--batch runs one call per image of a folder and of files, one JSON line each', async () => {
    const folder = join(scratch, 'batch');
    mkdirSync(folder, { recursive: true });
    const square = (x: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60"><rect width="100" height="60" fill="#ffffff"/><rect x="${x}" y="10" width="30" height="30" fill="#0000ff"/></svg>`;
    writeFileSync(join(folder, 'a.png'), (await renderSvg(square(10))).data);
    writeFileSync(join(folder, 'b.png'), (await renderSvg(square(50))).data);
    writeFileSync(join(folder, 'notes.txt'), 'not an image');
    const output = capture();
    expect((await runCli(['tools', 'run', 'colour_blobs', '--batch', folder, '--batch', image], output)).exitCode).toBe(EXIT_SUCCESS);
    const lines = output.out.map((line) => JSON.parse(line) as { image: string; ok: boolean; json: { detections: { bbox: number[]; label: string }[] } });
    expect(lines.map(({ image: file, ok, json }) => [file, ok, json.detections.map(({ label, bbox }) => `${label} ${bbox.join(',')}`)])).toEqual([
      [join(folder, 'a.png'), true, ['blue square 10,10,40,40']],
      [join(folder, 'b.png'), true, ['blue square 50,10,80,40']],
      [image, true, ['red square 20,20,60,60']],
    ]);
    const empty = capture();
    expect((await runCli(['tools', 'run', 'colour_blobs', '--batch', join(scratch, 'out-none')], empty)).exitCode).toBe(EXIT_USAGE);
    expect(empty.err.join('\n')).toContain('--batch: ' + join(scratch, 'out-none') + ' does not exist');
  });

  test('--tool-options configures detect: its model path reaches the tool', async () => {
    const output = capture();
    const missing = join(scratch, 'no-such-detector.onnx');
    const { exitCode } = await runCli(['tools', 'run', 'detect', '--image', image, '--tool-options', JSON.stringify({ detect: { model: missing } })], output);
    expect(exitCode).toBe(1);
    expect(JSON.parse(output.out.join('\n'))).toMatchObject({ ok: false, error: expect.stringContaining(`expected an ONNX detector at ${missing}, could not read it`) });
  });

  test.each([
    [['run', 'telescope'], 'No tool is registered with name "telescope"'],
    [['run', 'calculator', '--tool-options', '{"calculator": {}}'], '--tool-options: expected settings for a tool that takes them (detect, image_zoom_in_tool, python_code, remote-model, remote-vlm, search_coordinate, segment), received settings for calculator'],
    [['list', '--tool-options', '[1]'], '--tool-options: expected an object of settings objects by tool name'],
    [['run', 'detect', '--tool-options', '{"detect": {"model": "a.onnx", "colour": 1}}'], '--tool-options: detect: expected detect settings'],
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

describe('tool packages are found through their package.json', () => {
  const writeJson = (path: string, value: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
  };

  test('the runner offers the tools of its dependencies that declare "saccade": {"tools"}', () => {
    const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
    const found = findToolPackages(manifest).map(({ name, tools, close, create, warm }) => ({ name, tools, close, create, warm }));
    expect(found.map(({ name }) => name)).toEqual(['@saccade/tool-calculator', '@saccade/tool-code', '@saccade/tool-detect', '@saccade/tool-geometry', '@saccade/tool-ocr', '@saccade/tool-remote', '@saccade/tool-segment', '@saccade/tool-zoom']);
    expect(found).toEqual(
      expect.arrayContaining([
        { name: '@saccade/tool-calculator', tools: ['calculatorTool'], close: undefined, create: undefined, warm: undefined },
        { name: '@saccade/tool-code', tools: ['codeTool'], close: 'closeCodeSandboxes', create: { python_code: 'createCodeTool' }, warm: 'warmCodeSandboxes' },
        { name: '@saccade/tool-detect', tools: ['detectTool', 'colourBlobsTool'], close: 'closeDetectors', create: { detect: 'createDetectTool' }, warm: undefined },
        { name: '@saccade/tool-ocr', tools: ['ocrTool'], close: 'closeOcrEngines', create: undefined, warm: 'warmOcrEngines' },
        { name: '@saccade/tool-remote', tools: ['remoteVlmTool', 'remoteModelTool'], close: undefined, create: { 'remote-vlm': 'createRemoteVlmTool', 'remote-model': 'createRemoteModelTool' }, warm: undefined },
        { name: '@saccade/tool-segment', tools: ['segmentTool'], close: 'closeSegmenters', create: { segment: 'createSegmentTool' }, warm: undefined },
      ]),
    );
  });

  test('packages without the field and dependencies that did not install are skipped; a malformed field names the package', () => {
    const project = join(scratch, 'project');
    writeJson(join(project, 'package.json'), { dependencies: { 'my-tool': '1.0.0', plain: '1.0.0', 'not-installed': '1.0.0' }, optionalDependencies: { '@lab/gauge-tool': '1.0.0' } });
    writeJson(join(project, 'node_modules', 'my-tool', 'package.json'), { name: 'my-tool', saccade: { tools: ['myTool'] } });
    writeJson(join(project, 'node_modules', 'plain', 'package.json'), { name: 'plain', saccade: { envs: ['x'] } });
    writeJson(join(project, 'node_modules', '@lab', 'gauge-tool', 'package.json'), { name: '@lab/gauge-tool', saccade: { tools: ['gaugeTool', 'needleTool'], close: 'closeGauges' } });
    expect(findToolPackages(join(project, 'package.json'))).toEqual([
      { name: '@lab/gauge-tool', directory: join(project, 'node_modules', '@lab', 'gauge-tool'), tools: ['gaugeTool', 'needleTool'], close: 'closeGauges' },
      { name: 'my-tool', directory: join(project, 'node_modules', 'my-tool'), tools: ['myTool'] },
    ]);

    writeJson(join(project, 'node_modules', 'my-tool', 'package.json'), { name: 'my-tool', saccade: { tools: 'myTool' } });
    expect(() => findToolPackages(join(project, 'package.json'))).toThrow(
      'expected the package.json of my-tool to have "saccade": {"tools": ["<export>", …], "close"?: "<export>"}, it has {"tools":"myTool"} (saccade.tools: Invalid input: expected array, received string)',
    );
  });
});
