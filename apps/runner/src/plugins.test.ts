import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli } from './create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
import type { Output } from './output';
import { PLUGINS_VARIABLE } from './plugins';

// Plug-in packages as users write them, outside the runner's dependencies (plain JavaScript, a package.json naming what they register).
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'plugins');
const plugin = (name: string) => join(fixtures, name);
const scratch = mkdtempSync(join(tmpdir(), 'saccade-plugins-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => void delete process.env[PLUGINS_VARIABLE]);

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('plug-in packages', () => {
  test('--plugin <folder>: its tool is listed and runs, after the runner\'s own', async () => {
    const output = capture();
    expect((await runCli(['tools', 'run', 'echo_text', '--input', '{"text": "hi"}', '--plugin', plugin('tool-echo')], output)).exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(output.out.join('\n'))).toMatchObject({ tool: 'echo_text', ok: true, text: 'echo: hi' });
    const listed = capture();
    expect((await runCli(['--plugin', plugin('tool-echo'), 'tools', 'list', '--json'], listed)).exitCode).toBe(EXIT_SUCCESS);
    expect((JSON.parse(listed.out.join('\n')) as { name: string }[]).map((tool) => tool.name)).toContain('echo_text');
  });

  test(`${PLUGINS_VARIABLE}: its env is registered, checked, and an eval plays it; the eval's config keeps the plug-in`, async () => {
    process.env[PLUGINS_VARIABLE] = plugin('env-say');
    const listed = capture();
    expect((await runCli(['envs', 'list'], listed)).exitCode).toBe(EXIT_SUCCESS);
    expect(listed.out.join('\n')).toContain('fixture/Say-v1');
    const output = capture();
    expect((await runCli(['eval', '--env', 'fixture/Say-v1', '--agent', 'oracle', '--episodes', '2', '--out', scratch, '--name', 'say', '--json'], output)).exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(output.out.join('\n'))).toMatchObject({ episodes: 2, success: 1 });
    expect((parseYaml(readFileSync(join(scratch, 'say', 'config.yaml'), 'utf8')) as { plugins: string[] }).plugins).toEqual([plugin('env-say')]);
  });

  test('plugins: in a run config loads the env before the run is made; config.yaml records it for --resume', async () => {
    const config = join(scratch, 'say.yaml');
    writeFileSync(config, `plugins: [${plugin('env-say')}]\nenv: { id: fixture/Say-v1, options: {}, maxTurns: 1 }\nalgorithm: sft\nsft: { steps: 0 }\nmodel: { preset: tiny }\n`);
    const output = capture();
    expect((await runCli(['train', '--config', config, '--name', 'say-run', '--out', scratch, '--plain'], output)).exitCode).toBe(EXIT_SUCCESS);
    expect((parseYaml(readFileSync(join(scratch, 'say-run', 'config.yaml'), 'utf8')) as { plugins: string[] }).plugins).toEqual([plugin('env-say')]);
  });

  test('serve env --workers 2 --plugin <folder>: every worker process loads the plug-in', { timeout: 60_000 }, async () => {
    const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, 'serve', 'env', '--port', '0', '--workers', '2', '--plugin', plugin('env-say')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string;
      const url = /listening on (\S+)/.exec(first)?.[1];
      const post = async (path: string, body: unknown) => (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
      // Four ids split by hash over the two workers: each must know the plug-in's env.
      const ids = ['a', 'b', 'c', 'd'];
      expect(await post('/environments', { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'fixture/Say-v1', env_config: {} }])) })).toEqual({ success: true });
      const reset = (await post('/batch/reset', { ids2seeds: Object.fromEntries(ids.map((id) => [id, 0])) })) as { results: Record<string, [{ obs_str: string }, unknown]> };
      expect(Object.keys(reset.results).sort()).toEqual(ids);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test.each([
    ['saccade-no-such-plugin', `plugin saccade-no-such-plugin: no package of that name is installed in ${process.cwd()} or beside saccade; install it (npm install saccade-no-such-plugin) or give its folder (--plugin ./path/to/package)`],
    [plugin('no-field'), `plugin ${plugin('no-field')} (saccade-plugin-nothing): expected its package.json to name what it registers, "saccade": {"tools": ["<export>", …]} or {"envs": ["<export that registers envs>", …]}, it has no "saccade" field`],
    [join(scratch, 'nowhere'), `plugin ${join(scratch, 'nowhere')}: expected a package folder with a package.json at ${join(scratch, 'nowhere')}, found none`],
    [plugin('env-broken'), `plugin ${plugin('env-broken')} (saccade-plugin-broken): its env fixture/Broken-v1 fails checkEnv:\n${['reset({seed: 0})', 'second reset({seed: 0})', 'second instance: reset({seed: 0})'].map((call) => `  - ${call}: expected one <image> placeholder per image, found 1 placeholder(s) for 0 image(s)`).join('\n')}`],
  ])('--plugin %s: exit 2, a message naming the package and what was wrong, before the command runs', async (spec, message) => {
    const output = capture();
    expect((await runCli(['eval', '--plugin', spec, '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '1', '--out', scratch, '--name', 'refused'], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err[0]).toBe(message);
    expect(output.out).toEqual([]);
  });
});
