// A tool package made outside the Saccade workspace plugs into an installed saccade: the generator
// writes it into a user's own workspace (a temporary folder with Saccade installed from npm), it is
// built and packed there, installed beside Saccade's packed packages, and `saccade tools run`,
// `saccade eval --tools` and `saccade serve tools` use it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { run } from './installed-project';

const root = resolve(import.meta.dirname, '..', '..', '..');
const { project } = inject('installedProject');
const saccade = join(project, 'node_modules', '@saccade', 'runner', 'dist', 'cli.js');
const packageName = '@saccade/tool-colour-probe';
// A 1 × 1 red PNG.
const RED_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC', 'base64');

interface Tree {
  listChanges(): unknown[];
}

beforeAll(async () => {
  // The user's workspace: its own tsconfig, Saccade's packages installed from npm (the project's node_modules).
  const workspace = mkdtempSync(join(tmpdir(), 'saccade-own-workspace-'));
  writeFileSync(
    join(workspace, 'tsconfig.base.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, declaration: true, skipLibCheck: true, verbatimModuleSyntax: true, isolatedModules: true } }),
  );
  // Its node_modules: what the project installed, and the TypeScript a workspace builds with (tsup's declarations need it).
  mkdirSync(join(workspace, 'node_modules'));
  for (const entry of readdirSync(join(project, 'node_modules'))) symlinkSync(join(project, 'node_modules', entry), join(workspace, 'node_modules', entry));
  symlinkSync(realpathSync(join(root, 'node_modules', 'typescript')), join(workspace, 'node_modules', 'typescript'));

  // `nx g @saccade/plugin:tool colour-probe` there: the generator on nx's file-system tree, as nx runs it.
  const { FsTree, flushChanges } = (await import('nx/src/generators/tree.js')) as unknown as {
    FsTree: new (root: string, verbose: boolean) => Tree;
    flushChanges: (root: string, changes: unknown[]) => void;
  };
  const { toolGenerator } = (await import(pathToFileURL(join(root, 'tools/plugin/src/tool/tool-generator.js')).href)) as { toolGenerator: (tree: Tree, options: Record<string, unknown>) => Promise<unknown> };
  const tree = new FsTree(workspace, false);
  await toolGenerator(tree, { name: 'colour-probe', description: 'Reports the size of an episode image.', register: false, skipInstall: true });
  flushChanges(workspace, tree.listChanges());

  // Built and packed as its package.json says, then installed beside Saccade's packages, offline.
  const folder = join(workspace, 'packages', 'tools', 'colour-probe');
  run(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], folder);
  mkdirSync(join(workspace, 'tarballs'));
  run('npm', ['pack', '--pack-destination', join(workspace, 'tarballs')], folder);
  const [tarball] = readdirSync(join(workspace, 'tarballs'));
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--offline', join(workspace, 'tarballs', tarball!)], project);
});

/** Runs the installed saccade in the project; resolves with its exit code and output. */
function saccadeCli(args: string[], environment: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [saccade, ...args], { cwd: project, env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

describe('a tool package made in a user workspace, installed beside saccade', () => {
  test('saccade tools run --plugin <package>', async () => {
    writeFileSync(join(project, 'red.png'), RED_PIXEL);
    const result = await saccadeCli(['tools', 'run', 'colour_probe', '--input', '{"image": 0}', '--image', 'red.png', '--plugin', packageName]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ tool: 'colour_probe', ok: true, json: { image: 0, mediaType: 'image/png', bytes: 69, width: 1, height: 1 } });
  });

  test('saccade eval --tools, the plug-in named by SACCADE_PLUGINS: the agent calls it and reads its answer', async () => {
    // The agent under evaluation is scripted (an OpenAI-compatible server of two answers): it calls the tool, then answers.
    const agent = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const content = body.includes('tool_response') ? '<answer>A</answer>' : '<tool_call>{"name": "colour_probe", "arguments": {"image": 0}}</tool_call>';
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((done) => agent.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/v1`;
      const result = await saccadeCli(['eval', '--env', 'saccade/Charts-v1', '--agent', 'openai', '--base-url', url, '--model', 'scripted', '--episodes', '1', '--tools', 'colour_probe', '--name', 'probe', '--out', 'runs', '--plain'], { SACCADE_PLUGINS: packageName });
      expect(result.code).toBe(0);
    } finally {
      await new Promise<void>((done) => agent.close(() => done()));
    }
    expect(readFileSync(join(project, 'runs', 'probe', 'config.yaml'), 'utf8')).toContain(`plugins:\n  - "${packageName}"\n`);
    const [episode] = readFileSync(join(project, 'runs', 'probe', 'trajectories', 'episodes.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { turns: { info: { toolCalls?: unknown[] }; observation: { text: string } }[] });
    expect(episode!.turns[0]!.info.toolCalls).toMatchObject([{ name: 'colour_probe', arguments: { image: 0 }, ok: true }]);
    const response = /<tool_response>\n?([\s\S]*?)\n?<\/tool_response>/.exec(episode!.turns[1]!.observation.text)?.[1];
    expect(JSON.parse(response!)).toMatchObject({ image: 0, mediaType: 'image/png' });
  });

  test("saccade serve tools --plugin <folder>: verl-tool's protocol reaches the plug-in's tool", async () => {
    const child = spawn(process.execPath, [saccade, 'serve', 'tools', '--port', '0', '--plugin', `./node_modules/${packageName}`], { cwd: project, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string;
      const url = /listening on (\S+)/.exec(first)?.[1];
      const response = await fetch(`${url}/get_observation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          trajectory_ids: ['t'],
          actions: ['<tool_call>{"name": "colour_probe", "arguments": {"image": 0}}</tool_call>'],
          extra_fields: [{ images: [`data:image/png;base64,${RED_PIXEL.toString('base64')}`] }],
          finish: [false],
          is_last_step: [false],
        }),
      });
      const body = (await response.json()) as { observations: unknown[]; valids: boolean[] };
      expect(body.valids).toEqual([true]);
      expect(JSON.stringify(body.observations[0])).toContain('\\"mediaType\\":\\"image/png\\",\\"bytes\\":69');
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
