// docs/architecture.md's package map is drawn from the package.json files, so it cannot drift: a
// dependency added or removed without rewriting the map fails here. With
// SACCADE_WRITE_ARCHITECTURE_MAP=1 (what `node tools/scripts/workspace.mjs architecture-map` sets)
// the test rewrites the map instead.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ARCHITECTURE_MAP_COMMAND, ARCHITECTURE_PAGE, architectureMap, architectureMapBlock, replaceArchitectureMap, writeArchitectureMap } from './architecture-map';
import { readLayerPackages, type LayerPackage } from './package-layers';

const root = resolve(import.meta.dirname, '..', '..', '..');
const writing = process.env.SACCADE_WRITE_ARCHITECTURE_MAP === '1';

describe('architecture map', () => {
  test.runIf(writing)('rewrites the map in docs/architecture.md', () => {
    const changed = writeArchitectureMap(root);
    console.log(`${ARCHITECTURE_PAGE}: ${changed ? 'map rewritten from the package graph' : 'map already matches the package graph'}`);
  });

  test.skipIf(writing)('the map in docs/architecture.md is the one the package graph gives', () => {
    const page = readFileSync(join(root, ARCHITECTURE_PAGE), 'utf8');
    const expected = replaceArchitectureMap(page, architectureMapBlock(readLayerPackages(root)));
    if (page !== expected) {
      // The diff below says what moved; the message says how to fix it.
      expect(page, `${ARCHITECTURE_PAGE}'s package map differs from the package.json files: run \`${ARCHITECTURE_MAP_COMMAND}\` and commit the page`).toBe(expected);
    }
  });

  test('draws layers top down, groups packages with the same arrows, and marks optional peers and layer breaks', () => {
    const pkg = (name: string, runtime: string[], extra: Partial<LayerPackage> = {}): LayerPackage => ({ name, dir: name, runtime, dev: [], sourceImports: [], ...extra });
    const graph = [
      pkg('@saccade/spec', []),
      pkg('@saccade/core', ['@saccade/spec', 'zod']),
      pkg('@saccade/image', ['@saccade/spec', '@saccade/tensor'], { optionalPeers: ['@saccade/tensor'] }),
      pkg('@saccade/tensor', []),
      pkg('@saccade/tool-ocr', ['@saccade/core', '@saccade/spec']),
      pkg('@saccade/tool-detect', ['@saccade/spec', '@saccade/core', '@saccade/tool-ocr']),
      pkg('@saccade/env-grid', ['@saccade/core', '@saccade/spec']),
      pkg('@saccade/tui', ['@saccade/image']),
      pkg('@saccade/package-check', ['@saccade/spec'], { private: true }),
    ];
    expect(architectureMap(graph)).toBe(
      [
        'flowchart TD',
        '  subgraph apps',
        '    tui',
        '  end',
        '  subgraph plugins["plug-ins (side by side: none uses another)"]',
        '    env-grid',
        '    tool-detect',
        '    tool-ocr',
        '  end',
        '  subgraph foundations',
        '    core',
        '    image',
        '  end',
        '  subgraph base',
        '    spec',
        '    tensor',
        '  end',
        '',
        '  tui --> image',
        '  env-grid & tool-detect & tool-ocr --> core & spec',
        '  tool-detect ==> tool-ocr',
        '  core & image --> spec',
        '  image -.-> tensor',
      ].join('\n'),
    );
  });

  test('puts a long list of targets on one line a layer', () => {
    const tools = ['calculator', 'code', 'detect', 'geometry', 'ocr', 'remote', 'segment', 'zoom'].map((name) => `@saccade/tool-${name}`);
    const graph: LayerPackage[] = [...tools, '@saccade/core', '@saccade/image', '@saccade/spec', '@saccade/runner'].map((name) => ({
      name,
      dir: name,
      runtime: name === '@saccade/runner' ? ['@saccade/spec', ...tools, '@saccade/image', '@saccade/core'] : [],
      dev: [],
      sourceImports: [],
    }));
    expect(architectureMap(graph).split('\n').filter((line) => line.startsWith('  runner'))).toEqual([
      '  runner --> tool-calculator & tool-code & tool-detect & tool-geometry & tool-ocr & tool-remote & tool-segment & tool-zoom',
      '  runner --> core & image',
      '  runner --> spec',
    ]);
  });

  test('replaces only the marked block, and says what is wrong with the markers', () => {
    const start = '<!-- architecture-map:start (old wording) -->';
    const page = `# Title\n\n${start}\nold map\n<!-- architecture-map:end -->\n\nAfter.\n`;
    expect(replaceArchitectureMap(page, 'NEW')).toBe('# Title\n\nNEW\n\nAfter.\n');
    expect(() => replaceArchitectureMap('# Title\n', 'NEW')).toThrow(`expected ${ARCHITECTURE_PAGE} to hold one "<!-- architecture-map:start … -->" line followed by one "<!-- architecture-map:end -->" line around the package map; found no start marker`);
    expect(() => replaceArchitectureMap(`${start}\n`, 'NEW')).toThrow('found no end marker');
    expect(() => replaceArchitectureMap(`${page}${start}\n`, 'NEW')).toThrow('found markers out of order or repeated');
  });
});
