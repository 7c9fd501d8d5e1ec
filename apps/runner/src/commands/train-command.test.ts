import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import type { Trajectory } from '@saccade/spec';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-train-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('saccade train', () => {
  test('--env trains on another registered env, SFT only with --algorithm sft, its episodes in the events', { timeout: 180_000 }, async () => {
    const output = capture();
    const { exitCode } = await runCli(
      ['train', '--env', 'saccade/Sokoban-v1', '--env-options', '{"format":"no_think","observation":"vision","maxActionsPerTurn":1}', '--max-turns', '2', '--algorithm', 'sft',
        '--preset', 'tiny', '--steps', '2', '--batch-size', '4', '--eval-every', '2', '--eval-episodes', '2', '--train-seeds', '4', '--workers', '0', '--name', 'sokoban', '--out', scratch,
        // --set merges config keys; a dedicated flag (--steps) overrides it.
        '--set', '{"sft": {"steps": 5, "maxTokens": 40}, "grpo": {"temperature": 0.7}}'],
      output,
    );
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const events = readFileSync(join(scratch, 'sokoban', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; envId?: string; step?: number });
    expect(events.filter((event) => event.type === 'update-end')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'rollout-end')).toHaveLength(0);
    // The held-out episodes, played by the rollout manager, reach the run's events (and the TUI).
    expect(events.find((event) => event.type === 'episode-start' && event.step === 0)).toMatchObject({ envId: 'saccade/Sokoban-v1' });
    expect(events.some((event) => event.type === 'turn-end' && event.step === 2)).toBe(true);
    const config = parseYaml(readFileSync(join(scratch, 'sokoban', 'config.yaml'), 'utf8')) as { sft: { steps: number; maxTokens: number }; grpo: { temperature: number } };
    expect([config.sft.steps, config.sft.maxTokens, config.grpo.temperature]).toEqual([2, 40, 0.7]);
  });

  test.each([
    [['--env', 'saccade/FrozenLake-v1', '--env-options', '{"zzz": 1}'], 'Invalid argument zzz: expected an option of saccade/FrozenLake-v1'],
    [['--env', 'saccade/Nope-v1'], 'No env is registered with id "saccade/Nope-v1"'],
    [['--env-options', '[1]'], '--env-options'],
    [['--tools', 'no_such_tool', '--name', 'tools'], '--tools: no tool is named no_such_tool'],
    [['--env', 'saccade/GroundedVisualSearch-v1', '--tools', 'search_coordinate', '--name', 'twice'], 'tools: saccade/GroundedVisualSearch-v1 calls search_coordinate in its own tool loop'],
    [['--recipe', 'nope'], 'no recipe is named "nope"; expected one of: frozenlake, visual-search'],
    [['--tool-options', '[]'], 'Invalid configuration in --tool-options'],
    [['--recipe', 'visual-search', '--tool-options', '{"search_coordinate": {"offset": -1}}', '--name', 'offset'], 'search_coordinate: Invalid argument offset: expected a positive integer (pixels)'],
    [['--set', '[1]'], 'Invalid configuration in --set'],
    [['--set', '{"grpo": '], 'not valid JSON'],
    [['--set', '{"grpo": {"temperatur": 0.7}}'], 'grpo: unknown key(s) "temperatur"'],
  ])('%j is a usage error before any training', async (flags, message) => {
    const output = capture();
    const { exitCode } = await runCli(['train', ...flags, '--out', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(message);
  });

  test('--recipe visual-search: the oracle looks, then answers; evaluations report looking; --tools none takes the tools away', { timeout: 180_000 }, async () => {
    // The recipe at test size: one SFT step, one GRPO step of 1 prompt × 2 episodes.
    const small = join(scratch, 'small.yaml');
    writeFileSync(small, 'model: { preset: tiny, config: { imageSize: 128, patchSize: 16, maxSequenceLength: 512 } }\ngrpo: { promptsPerStep: 1, groupSize: 2, evalEvery: 1 }\n');
    const flags = ['--config', small, '--steps', '1', '--batch-size', '2', '--eval-every', '1', '--eval-episodes', '2', '--train-seeds', '2', '--grpo-steps', '1', '--workers', '0', '--out', scratch];
    const output = capture();
    expect((await runCli(['train', '--recipe', 'visual-search', '--name', 'looking', ...flags], output)).exitCode).toBe(EXIT_SUCCESS);
    const config = parseYaml(readFileSync(join(scratch, 'looking', 'config.yaml'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ env: { id: 'saccade/VisualSearch-v1', options: { level: 'anywhere' } }, tools: ['search_coordinate'], policyView: 'no-system', model: { preset: 'tiny' } });
    const events = readFileSync(join(scratch, 'looking', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; step?: number; turn?: number; action?: string; metrics?: Record<string, number> });
    // The oracle's demonstrations (the events before any step): a call at the target on the 8 × 8 frame, then the shape.
    const demonstration = events.filter((event) => event.type === 'turn-end' && event.step === undefined).slice(0, 2);
    expect(demonstration[0]!.action).toMatch(/^<tool_call>\{"name":"search_coordinate","arguments":\{"coordinate":\[[0-8],[0-8]\]\}\}<\/tool_call>$/);
    expect(demonstration[1]!.action).toMatch(/^<answer>(star|cross|ring)<\/answer>$/);
    const evaluation = events.find((event) => event.type === 'eval-end')!.metrics!;
    expect(Object.keys(evaluation)).toEqual(expect.arrayContaining(['toolCallsPerEpisode', 'invalidCallRate', 'targetHitRate']));
    const rows = readFileSync(join(scratch, 'looking', 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.find((row) => row['kind'] === 'rollout')).toHaveProperty('toolCallsPerEpisode');
    expect(output.out.some((line) => /^eval @ step \d+: .*; tool calls \d\.\d\d\/episode/.test(line))).toBe(true);
    expect(existsSync(join(scratch, 'looking', 'plots', 'looking.png'))).toBe(true);

    const ablation = capture();
    expect((await runCli(['train', '--recipe', 'visual-search', '--tools', 'none', '--name', 'no-tools', '--algorithm', 'sft', ...flags], ablation)).exitCode).toBe(EXIT_SUCCESS);
    const noTools = readFileSync(join(scratch, 'no-tools', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; step?: number; action?: string; metrics?: Record<string, number> });
    expect(noTools.find((event) => event.type === 'turn-end')!.action).toMatch(/^<answer>(star|cross|ring)<\/answer>$/);
    expect(Object.keys(noTools.find((event) => event.type === 'eval-end')!.metrics!)).not.toContain('toolCallsPerEpisode');
  });

  test('--help lists the recipes', async () => {
    const output = capture();
    await runCli(['train', '--help'], output).catch(() => undefined);
    const help = output.out.join('\n');
    expect(help).toContain('Recipes (--recipe):\n  frozenlake          FrozenLake 4×4 from images: SFT on the solver');
    expect(help).toContain('\n  visual-search       Visual search that needs a closer look');
    expect(help).toContain('\n  visual-search-grid  Visual search with the target centred in a grid cell');
  });

  // The default data-parallel set-up (one worker thread per spare core); the other runs here train on one thread.
  test('a short run leaves a complete run folder; within its time guard it has no cut', { timeout: 180_000 }, async () => {
    const output = capture();
    const { exitCode } = await runCli(
      ['train', '--preset', 'tiny', '--steps', '4', '--batch-size', '4', '--eval-every', '2', '--eval-episodes', '3', '--train-seeds', '8', '--grpo-steps', '0', '--time-limit', '3600', '--name', 'short', '--out', scratch],
      output,
    );
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const folder = join(scratch, 'short');
    expect(readdirSync(folder).sort()).toEqual(['checkpoints', 'config.yaml', 'events.jsonl', 'metrics.jsonl', 'plots', 'summary.json', 'trajectories']);
    // The evaluations' episodes are stored (3 evaluations of 3 seeds), each with the step it evaluated.
    const evaluated = readFileSync(join(folder, 'trajectories', 'evaluations.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; training: { phase: string; step: number } });
    expect(evaluated.map((trajectory) => `${trajectory.training.phase}@${trajectory.training.step} ${trajectory.id}`)).toEqual(
      [0, 2, 4].flatMap((step) => [0, 1, 2].map((seed) => `eval@${step} e${step}-${seed}-0`)),
    );
    expect(existsSync(join(folder, 'trajectories', 'training.jsonl'))).toBe(false);
    expect(readdirSync(join(folder, 'plots')).sort()).toEqual(['loss.png', 'loss.svg', 'success-minutes.png', 'success-minutes.svg', 'success.png', 'success.svg']);
    // A PNG a person can open: the signature, and the chart's 640×360 size in the header.
    const png = readFileSync(join(folder, 'plots', 'success.png'));
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 360]);
    const config = parseYaml(readFileSync(join(folder, 'config.yaml'), 'utf8'));
    expect(config).toMatchObject({ env: { id: 'saccade/FrozenLake-v1' }, model: { preset: 'tiny' }, sft: { steps: 4, batchSize: 4, timeLimitSeconds: 3600 } });
    const events = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; level?: string });
    expect(events.filter((event) => event.level === 'warn')).toEqual([]);
    expect(output.out.filter((line) => line.startsWith('warning: '))).toEqual([]);
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)?.type).toBe('run-end');
    expect(events.filter((event) => event.type === 'update-end')).toHaveLength(4);
    expect(events.filter((event) => event.type === 'eval-end')).toHaveLength(3);
    const metrics = readFileSync(join(folder, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; step: number });
    expect(metrics.map((row) => `${row.kind}@${row.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2', 'train@3', 'train@4', 'eval@4']);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { status: string; steps: number };
    expect(summary).toMatchObject({ status: 'completed', steps: 4, cuts: [] });
    expect(existsSync(join(folder, 'checkpoints', '4', 'weights.bin'))).toBe(true);
    expect(output.out.at(-2)).toMatch(/^done: 4 steps in \d+ s; held-out success \d+\.\d% → \d+\.\d%\. Run folder: /);
    expect(output.out.at(-1)).toBe(
      `plots: ${join(folder, 'plots', 'loss.png')}, ${join(folder, 'plots', 'success.png')}, ${join(folder, 'plots', 'success-minutes.png')}`,
    );
  });

  test('a time guard that runs out cuts its phase, and the run says so: an event, summary.json, the progress lines, the last line', { timeout: 180_000 }, async () => {
    const file = join(scratch, 'guarded.yaml');
    writeFileSync(file, 'grpo: { promptsPerStep: 1, groupSize: 2, maxTokens: 12 }\nepisodeStore: { trainEvery: 0, evaluations: false }\n');
    const output = capture();
    const { exitCode } = await runCli(
      ['train', '--config', file, '--preset', 'tiny', '--steps', '4', '--batch-size', '4', '--eval-every', '2', '--eval-episodes', '2', '--train-seeds', '8', '--grpo-steps', '2',
        '--time-limit', '0.001', '--grpo-time-limit', '0.001', '--workers', '0', '--name', 'guarded', '--out', scratch, '--plain'],
      output,
    );
    expect(exitCode).toBe(EXIT_SUCCESS);
    const folder = join(scratch, 'guarded');
    // Each phase stops after its first step (an evaluation there, then the next phase from that step).
    const metrics = readFileSync(join(folder, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; step: number });
    expect(metrics.map((row) => `${row.kind}@${row.step}`)).toEqual(['eval@0', 'train@1', 'eval@1', 'rollout@2', 'train@2', 'eval@2']);
    const sftMessage = "SFT was cut short by its time limit (sft.timeLimitSeconds: 0.001 s): it stopped at step 1 of 4; this run's curve is not the one its configured steps give";
    const grpoMessage = "GRPO was cut short by its time limit (grpo.timeLimitSeconds: 0.001 s): it stopped at step 2 of 3 (1 of its 2 steps); this run's curve is not the one its configured steps give";
    const cuts = [
      { phase: 'sft', atStep: 1, ofSteps: 4, limitSeconds: 0.001, seconds: expect.any(Number) },
      { phase: 'grpo', atStep: 2, ofSteps: 3, limitSeconds: 0.001, seconds: expect.any(Number) },
    ];
    const events = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; level?: string });
    expect(events.filter((event) => event.type === 'log' && event.level === 'warn')).toEqual([
      { type: 'log', time: expect.any(String), level: 'warn', step: 1, message: sftMessage, data: { cut: cuts[0] } },
      { type: 'log', time: expect.any(String), level: 'warn', step: 2, message: grpoMessage, data: { cut: cuts[1] } },
    ]);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { cuts: { seconds: number }[] };
    expect(summary).toMatchObject({ status: 'completed', steps: 2, cuts });
    for (const cut of summary.cuts) expect(cut.seconds).toBeGreaterThanOrEqual(0.001);
    expect(output.out.filter((line) => line.startsWith('warning: '))).toEqual([`warning: ${sftMessage}`, `warning: ${grpoMessage}`]);
    expect(output.out.at(-2)).toMatch(/^done: 2 steps in \d+ s; /);
    expect(output.err).toEqual([
      "warning: a time limit cut this run short: SFT at step 1 of 4 (sft.timeLimitSeconds: 0.001 s), GRPO at step 2 of 3 (grpo.timeLimitSeconds: 0.001 s). Its curve is not the one its configured steps give (summary.json: cuts); raise or remove the limit to run every step.",
    ]);

    // Resumed, the run keeps its cuts: summary.json lists those its events recorded.
    const resumed = capture();
    expect((await runCli(['train', '--resume', folder, '--plain'], resumed)).exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8'))).toMatchObject({ status: 'completed', steps: 2, cuts });
    expect(resumed.err).toHaveLength(1);
  });

  test('an unknown config key and a wrong type are usage errors naming the key', async () => {
    const file = join(scratch, 'bad.yaml');
    writeFileSync(file, 'sft:\n  steps: many\n  stepz: 3\n');
    const output = capture();
    const { exitCode } = await runCli(['train', '--config', file, '--out', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    const message = output.err.join('\n');
    expect(message).toContain(`Invalid configuration in ${file}`);
    expect(message).toContain('sft.steps: Invalid input: expected number, received string');
    expect(message).toContain('sft: unknown key(s) "stepz"');
  });

  test('algorithm: ppo runs PPO with a critic after SFT', { timeout: 180_000 }, async () => {
    const file = join(scratch, 'ppo.yaml');
    writeFileSync(
      file,
      [
        'model: { preset: tiny }',
        'algorithm: ppo',
        'seeds: { train: { start: 1000, count: 8 }, eval: { start: 0, count: 3 } }',
        'sft: { steps: 2, batchSize: 4, evalEvery: 2 }',
        'ppo: { steps: 2, episodesPerStep: 4, maxTokens: 12, evalEvery: 2, valueWarmupSteps: 1 }',
        'episodeStore: { trainEvery: 2, evaluations: false }',
        'workers: 0',
      ].join('\n'),
    );
    const output = capture();
    const { exitCode } = await runCli(['train', '--config', file, '--name', 'ppo', '--out', scratch], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const folder = join(scratch, 'ppo');
    const metrics = readFileSync(join(folder, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    // SFT steps, then PPO steps each with its rollout's figures (reward terms, success while sampling).
    expect(metrics.map((row) => `${String(row['kind'])}@${String(row['step'])}`)).toEqual([
      'eval@0',
      'train@1',
      'train@2',
      'eval@2',
      'rollout@3',
      'train@3',
      'rollout@4',
      'train@4',
      'eval@4',
    ]);
    // The PPO steps report the critic's figures; the first one trains the critic only.
    const ppoSteps = metrics.filter((row) => row['kind'] === 'train' && Number(row['step']) > 2);
    for (const row of ppoSteps) expect(row).toHaveProperty('valueLoss');
    expect(ppoSteps.map((row) => row['valueWarmup'])).toEqual([1, 0]);
    const checkpoint = JSON.parse(readFileSync(join(folder, 'checkpoints', '4', 'manifest.json'), 'utf8')) as { metadata?: Record<string, unknown> };
    expect(checkpoint.metadata).toMatchObject({ phase: 'ppo', phaseStart: 2 });
    // Step 4's batch is stored (trainEvery 2; step 3 is not), with PPO's per-token values; no evaluations.
    const stored = readFileSync(join(folder, 'trajectories', 'training.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Trajectory);
    expect(stored.map((trajectory) => `${trajectory.training!.phase}@${trajectory.training!.step}`)).toEqual(['ppo@4', 'ppo@4', 'ppo@4', 'ppo@4']);
    for (const trajectory of stored.filter((episode) => episode.training!.trained)) {
      for (const sequence of trajectory.training!.sequences) {
        expect(sequence.values).toHaveLength(sequence.pieces.length);
        expect(sequence.loss).toContain(1);
      }
    }
    expect(existsSync(join(folder, 'trajectories', 'evaluations.jsonl'))).toBe(false);
  });

  test('an unknown algorithm is a usage error naming the choices', async () => {
    const output = capture();
    const { exitCode } = await runCli(['train', '--algorithm', 'dqn', '--out', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toMatch(/algorithm: .*"grpo".*"ppo"/);
  });

  test('a missing config file is a usage error', async () => {
    const output = capture();
    const { exitCode } = await runCli(['train', '--config', join(scratch, 'missing.yaml')], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain('cannot read the file');
  });
});
