// The package graph keeps its layers (docs/architecture.md): a new import across the plug-in row,
// or up the stack, fails here. The allow-list holds exceptions while they are removed; an entry that
// no longer happens fails too, so the list only shrinks.
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { layerOf, layerViolations, readLayerPackages, type AllowedViolation, type LayerPackage } from './package-layers';

const root = resolve(import.meta.dirname, '..', '..', '..');

// Empty: every exception is gone. A new one needs its reason here and a row in docs/architecture.md.
const ALLOWED: readonly AllowedViolation[] = [];

describe('package layers', () => {
  const packages = readLayerPackages(root);

  test('every workspace package keeps to its layer, except the allow-listed dependencies', () => {
    expect(packages.map((pkg) => pkg.name)).toContain('@saccade/rollout');
    expect(layerViolations(packages, ALLOWED)).toEqual([]);
  });

  test('rollout depends on neither models nor agents, and no plug-in on a sibling outside the allow-list', () => {
    const rollout = packages.find((pkg) => pkg.name === '@saccade/rollout');
    expect(rollout?.runtime).not.toContain('@saccade/models');
    expect(rollout?.runtime).not.toContain('@saccade/agents');
    expect(ALLOWED.every((entry) => entry.reason.length > 0)).toBe(true);
  });

  test('names each kind of violation, and a stale allow-list entry', () => {
    const pkg = (name: string, runtime: string[], dev: string[] = [], sourceImports: LayerPackage['sourceImports'] = []): LayerPackage => ({ name, dir: name, runtime, dev, sourceImports });
    const graph = [
      pkg('@saccade/spec', []),
      pkg('@saccade/core', ['@saccade/spec', '@saccade/runs']),
      pkg('@saccade/runs', ['@saccade/core']),
      pkg('@saccade/rollout', ['@saccade/core', '@saccade/models'], ['@saccade/env-grid', '@saccade/trainers']),
      pkg('@saccade/models', ['@saccade/spec'], [], [{ name: '@saccade/agents', file: 'src/model-agent.ts' }]),
      pkg('@saccade/agents', ['@saccade/core']),
      pkg('@saccade/env-grid', ['@saccade/core']),
      pkg('@saccade/trainers', ['@saccade/rollout', '@saccade/env-grid']),
      pkg('@saccade/runner', ['@saccade/trainers', '@saccade/tui']),
      pkg('@saccade/tui', ['@saccade/runs']),
      pkg('@saccade/mystery', []),
    ];
    expect(layerViolations(graph, [{ from: '@saccade/tool-detect', to: '@saccade/tool-ocr', reason: 'gone' }])).toEqual([
      '@saccade/core → @saccade/runs (dependencies): run folder is above foundations',
      '@saccade/rollout → @saccade/models (dependencies): plug-ins never use one another',
      '@saccade/rollout → @saccade/trainers (devDependencies): composition is above plug-ins',
      '@saccade/models → @saccade/agents (imported by src/model-agent.ts): not in its dependencies or peerDependencies',
      '@saccade/trainers → @saccade/env-grid (dependencies): composition reaches envs and tools through the registries',
      '@saccade/mystery (@saccade/mystery) is in no layer: add it to LAYERS in tools/package-check/src/package-layers.ts',
      '@saccade/tool-detect → @saccade/tool-ocr is allowed but no longer happens: remove it from the allow-list',
    ]);
    expect([layerOf('@saccade/env-anything'), layerOf('@saccade/tool-anything'), layerOf('@saccade/rollout')]).toEqual([3, 3, 3]);
  });
});
