import { readFileSync } from 'node:fs';
import { readJson, type Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { packageFiles } from '../package-files.js';
import { normalizeToolOptions, RUNNER_MANIFEST, toolGenerator } from './tool-generator.js';

let tree: Tree;
beforeEach(() => {
  tree = createTreeWithEmptyWorkspace();
  tree.write('packages/core/package.json', JSON.stringify({ name: '@saccade/core', dependencies: { '@saccade/spec': 'workspace:^', zod: '^4.1.0' } }));
  tree.write('packages/tools/zoom/package.json', JSON.stringify({ name: '@saccade/tool-zoom' }));
  tree.write(RUNNER_MANIFEST, JSON.stringify({ name: '@saccade/runner', dependencies: { '@saccade/core': 'workspace:^', '@saccade/tool-zoom': 'workspace:^', zod: '^4.1.0' } }));
});

const written = (prefix: string) =>
  tree
    .listChanges()
    .map((change) => change.path)
    .filter((path) => path.startsWith(prefix))
    .sort();

describe('nx g @saccade/plugin:tool', () => {
  it('writes the package: skeleton from the shared template, tool, tests, README and example', async () => {
    await toolGenerator(tree, { name: 'colour-picker', description: 'Names the colour at a point.', skipInstall: true });
    const folder = 'packages/tools/colour-picker';
    expect(written(folder)).toEqual([
      `${folder}/README.md`,
      `${folder}/examples/colour-picker.mjs`,
      `${folder}/package.json`,
      `${folder}/src/colour-picker-tool.test.ts`,
      `${folder}/src/colour-picker-tool.ts`,
      `${folder}/src/index.ts`,
      `${folder}/tsconfig.json`,
      `${folder}/vitest.config.ts`,
    ]);

    // The scaffolder's package.json, with the tool's dependencies, examples shipped and the tools field.
    const skeleton = JSON.parse(packageFiles({ folder, name: '@saccade/tool-colour-picker', description: 'Names the colour at a point.' })[`${folder}/package.json`]!);
    expect(readJson(tree, `${folder}/package.json`)).toEqual({
      ...skeleton,
      files: ['dist', 'examples', 'README.md'],
      dependencies: { '@saccade/core': 'workspace:^', '@saccade/spec': 'workspace:^', zod: '^4.1.0' },
      saccade: { tools: ['colourPickerTool'] },
    });
    expect(tree.read(`${folder}/tsconfig.json`, 'utf-8')).toBe('{\n  "extends": "../../../tsconfig.base.json",\n  "include": [\n    "src",\n    "test"\n  ]\n}\n');
    expect(tree.read(`${folder}/vitest.config.ts`, 'utf-8')).toBe("export { default } from '../../../vitest.shared.js';\n");
    expect(tree.read(`${folder}/src/index.ts`, 'utf-8')).toBe(
      "export { createColourPickerTool, colourPickerTool } from './colour-picker-tool';\nexport type { ColourPickerToolSettings } from './colour-picker-tool';\n",
    );

    const source = tree.read(`${folder}/src/colour-picker-tool.ts`, 'utf-8')!;
    expect(source).toContain("export function createColourPickerTool({ name = 'colour_picker' }: ColourPickerToolSettings = {}): Tool<z.output<typeof input>> {");
    expect(source).toContain('    description: "Names the colour at a point.",\n');
    expect(source).toContain('export const colourPickerTool = createColourPickerTool();');
    expect(source).not.toMatch(/<%|%>|__fileName__/);

    const test = tree.read(`${folder}/src/colour-picker-tool.test.ts`, 'utf-8')!;
    expect(test).toContain("import { createColourPickerTool, colourPickerTool } from './colour-picker-tool';");
    expect(test).toContain("expect(await checkTool(colourPickerTool, { sampleInput: { image: 0 }, images: [RED_PIXEL_PNG] })).toEqual({ ok: true, toolName: 'colour_picker', failures: [] });");
    expect(tree.read(`${folder}/README.md`, 'utf-8')).toMatch(/^# @saccade\/tool-colour-picker\n\nNames the colour at a point\.\n/);
    expect(tree.read(`${folder}/examples/colour-picker.mjs`, 'utf-8')).toContain("import { colourPickerTool } from '../dist/index.js';");
  });

  it('adds the package to the runner, sorted, so that `saccade tools list` finds it', async () => {
    await toolGenerator(tree, { name: 'gauge', skipInstall: true });
    expect(Object.entries(readJson(tree, RUNNER_MANIFEST).dependencies)).toEqual([
      ['@saccade/core', 'workspace:^'],
      ['@saccade/tool-gauge', 'workspace:^'],
      ['@saccade/tool-zoom', 'workspace:^'],
      ['zod', '^4.1.0'],
    ]);
  });

  it('with register: false, leaves the runner alone; installs unless told not to', async () => {
    const before = tree.read(RUNNER_MANIFEST, 'utf-8');
    const install = await toolGenerator(tree, { name: 'gauge', register: false });
    expect(tree.read(RUNNER_MANIFEST, 'utf-8')).toBe(before);
    expect(typeof install).toBe('function');
    expect(await toolGenerator(tree, { name: 'dial', skipInstall: true })).toBeUndefined();
  });

  it("in a user's own workspace (no packages/core), depends on Saccade's published range, which npm can install", async () => {
    const own = createTreeWithEmptyWorkspace();
    await toolGenerator(own, { name: 'gauge', register: false, skipInstall: true });
    const version = (JSON.parse(readFileSync(new URL('../../../../packages/core/package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(readJson(own, 'packages/tools/gauge/package.json').dependencies).toEqual({ '@saccade/core': `^${version}`, '@saccade/spec': `^${version}`, zod: '^4.1.0' });
  });

  it('derives the names, and takes a tool name of its own', () => {
    expect(normalizeToolOptions({ name: 'pieChartReader' })).toEqual({
      fileName: 'pie-chart-reader',
      className: 'PieChartReader',
      propertyName: 'pieChartReader',
      toolName: 'pie_chart_reader',
      packageName: '@saccade/tool-pie-chart-reader',
      folder: 'packages/tools/pie-chart-reader',
      description: 'Reports the media type and size of one of the episode images.',
      register: true,
      skipInstall: false,
    });
    expect(normalizeToolOptions({ name: 'tool-gauge', toolName: 'read_gauge', description: 'Reads a */ gauge\n  dial.' })).toMatchObject({
      fileName: 'gauge',
      toolName: 'read_gauge',
      description: 'Reads a * / gauge dial.',
    });
  });

  it('refuses names it cannot use, an existing folder and a taken package name', async () => {
    expect(() => normalizeToolOptions({ name: '' })).toThrow('expected a tool name such as colour-picker, received none');
    expect(() => normalizeToolOptions({ name: '9lives' })).toThrow('expected a tool name of letters, digits and dashes that starts with a letter (e.g. colour-picker), received "9lives"');
    expect(() => normalizeToolOptions({ name: 'gauge', toolName: 'read gauge' })).toThrow('expected --toolName of letters, digits, "_" or "-", 1 to 64 characters (what models accept), received "read gauge"');
    await expect(toolGenerator(tree, { name: 'zoom', skipInstall: true })).rejects.toThrow('expected packages/tools/zoom not to exist, it does: pick another name or remove it');
    tree.write('packages/tools/zoom-old/package.json', JSON.stringify({ name: '@saccade/tool-lens' }));
    await expect(toolGenerator(tree, { name: 'lens', skipInstall: true })).rejects.toThrow('expected a new package name, but packages/tools/zoom-old/package.json is @saccade/tool-lens already');
    expect(written('packages/tools/lens')).toEqual([]);
  });
});

describe('the shared package template', () => {
  it('writes the files every package starts with, paths relative to the workspace root', () => {
    expect(packageFiles({ folder: './packages/image/', name: '@saccade/image', description: 'Images.' })).toEqual({
      'packages/image/package.json': expect.stringContaining('"name": "@saccade/image",\n  "version": "0.1.0",\n  "description": "Images.",'),
      'packages/image/tsconfig.json': '{\n  "extends": "../../tsconfig.base.json",\n  "include": [\n    "src",\n    "test"\n  ]\n}\n',
      'packages/image/vitest.config.ts': "export { default } from '../../vitest.shared.js';\n",
      'packages/image/README.md': '# @saccade/image\n\nImages.\n',
      'packages/image/src/index.ts': 'export {};\n',
    });
    expect(() => packageFiles({ folder: '../elsewhere', name: '@saccade/x' })).toThrow('expected a folder inside the workspace such as packages/tools/zoom, received "../elsewhere"');
    expect(() => packageFiles({ folder: 'packages/x', name: 'x' })).toThrow('expected a package name starting with @saccade/, received "x"');
  });
});
