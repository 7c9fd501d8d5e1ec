import { applyHistoryWindow, applyPromptView, type PromptView } from '@saccade/agents';
import type { Message } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createEnvRouter, createEnvServer, createModelServer, createRewardServer, createToolServer, type SaccadeServer } from '@saccade/server';
import { Command } from 'commander';
import { VAGEN_ENV_NAMES } from '../builtin-envs';
import { parseToolOptions, registerBuiltinTools, type ToolOptions } from '../builtin-tools';
import { readTrainedRun, type TrainedRun } from '../trained-run';
import { PLUGINS_VARIABLE, requestedPlugins } from '../plugins';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

interface ServeFlags {
  port: number;
  workers?: number;
  host: string;
  checkpoint?: string;
  preset?: 'tiny' | 'small';
  modelName?: string;
}

const port = (value: string): number => Number.parseInt(value, 10);
// Structured JSON logs go to stderr, so that stdout carries only the CLI's own lines.
const logger = { level: 'info', stream: process.stderr };

/**
 * `saccade serve env|tools|model`: the HTTP services of @saccade/server (VAGEN's env protocol,
 * verl-tool's tool protocol, OpenAI chat completions). Runs until SIGINT/SIGTERM, then finishes the
 * requests in flight and exits.
 */
export function serveCommand(output: Output, setExitCode: (code: number) => void): Command {
  const serve = new Command('serve').description('run an HTTP service: env (VAGEN protocol), tools (verl-tool protocol), reward (verl reward function), model (OpenAI protocol)');
  const common = (command: Command): Command =>
    command.option('--port <n>', 'port (0 picks a free one)', port, 8000).option('--host <host>', 'interface to listen on', '127.0.0.1');

  const run = async (create: () => Promise<SaccadeServer | { server: SaccadeServer; close: () => Promise<void> }>, flags: ServeFlags, what: string): Promise<void> => {
    if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65_535) {
      output.error(`--port must be an integer from 0 to 65535; got ${String(flags.port)}.`);
      setExitCode(EXIT_USAGE);
      return;
    }
    const created = await create();
    const server = 'server' in created ? created.server : created;
    const url = await server.listen(flags.port, flags.host);
    output.log(`${what} listening on ${url} (Ctrl-C stops it)`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    if ('server' in created) await created.close();
    output.log(`${what} stopped`);
    setExitCode(EXIT_SUCCESS);
  };

  common(serve.command('env').description("every registered env, over VAGEN's batch env protocol, VAGEN's remote env sessions (/connect, /call) and Saccade's session API"))
    .option('--workers <n>', 'env service processes behind one address (batch ids split by hash, sessions by worker); 1 serves in this process', port, 1)
    .option('--api-key <key>', 'a key every request but GET /health must carry (x-api-key, ?token= or Authorization: Bearer); default $SACCADE_API_KEY, else none')
    .action((flags: ServeFlags & { apiKey?: string }, command: Command) => {
      const workers = flags.workers ?? 1;
      if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
        output.error(`--workers must be an integer from 1 to 256; got ${String(flags.workers)}.`);
        setExitCode(EXIT_USAGE);
        return;
      }
      const apiKey = flags.apiKey ?? process.env.SACCADE_API_KEY;
      const auth = apiKey === undefined || apiKey.length === 0 ? {} : { apiKey };
      // Configs may name tools (env_config.tools): the built-in ones are registered, loading their models on first use.
      if (workers === 1) {
        return run(
          async () => {
            const builtin = await registerBuiltinTools();
            return { server: createEnvServer({ logger, vagenEnvNames: VAGEN_ENV_NAMES, ...auth }), close: builtin.close };
          },
          flags,
          'env service',
        );
      }
      return run(
        async () => {
          // The workers listen on loopback only; the key guards the router's address.
          const children = await Promise.all(Array.from({ length: workers }, () => startEnvWorker(requestedPlugins(command))));
          const router = createEnvRouter({ logger, workers: children.map((child) => child.url), ...auth });
          return { server: router, close: async () => void (await Promise.all(children.map((child) => child.stop()))) };
        },
        flags,
        `env router over ${workers} env service processes`,
      );
    });
  common(serve.command('tools').description("the built-in tools, over verl-tool's /get_observation protocol"))
    .option('--tool-options <json>', 'settings of tools by name, JSON or @file, e.g. \'{"detect": {"model": "yolo11n.onnx"}}\'')
    .action((flags: ServeFlags & { toolOptions?: string }) => {
      let options: ToolOptions;
      try {
        options = parseToolOptions(flags.toolOptions);
      } catch (error) {
        output.error((error as Error).message);
        setExitCode(EXIT_USAGE);
        return;
      }
      return run(
        async () => {
          const builtin = await registerBuiltinTools(options);
          // Models (OCR's) load now, so that no request pays for them; they stay open until the service stops.
          await builtin.warm();
          return { server: createToolServer({ tools: builtin.tools, logger }), close: builtin.close };
        },
        flags,
        'tool service',
      );
    });
  common(serve.command('reward').description("Saccade's answer checkers for verl's custom_reward_function (POST /score; packages/server/python/saccade_reward.py)")).action(
    (flags: ServeFlags) => run(async () => createRewardServer({ logger }), flags, 'reward service'),
  );
  common(serve.command('model').description('the built-in model behind /v1/chat/completions'))
    .option('--checkpoint <folder>', 'a checkpoint folder (default: a fresh --preset model)')
    .option('--preset <preset>', 'tiny | small (without --checkpoint)', 'small')
    .option('--model-name <name>', 'the model id the server reports')
    .action((flags: ServeFlags) =>
      run(
        async () => {
          await initTensor();
          const trained = flags.checkpoint === undefined ? undefined : readTrainedRun(flags.checkpoint, '--checkpoint');
          if (flags.checkpoint === undefined) {
            // On stderr: stdout's first line is the address clients read.
            output.error(`serving a fresh, untrained ${flags.preset ?? 'small'} model: it answers any chat that fits its context, untrained; serve a training run with --checkpoint runs/<name>`);
          } else if (trained !== undefined) {
            output.error(`serving ${trained.checkpoint} as its run trained it: ${trained.policyView ?? 'image'} view, history window ${trained.historyWindow ?? 0}`);
            // The policy learned one env's prompts: a client playing that env's defaults asks it something else.
            output.error(`trained on ${describeTrainedEnv(trained)}; play it so: saccade eval --agent openai --env-from ${flags.checkpoint} …`);
          }
          const view = (trained?.policyView ?? 'image') as PromptView;
          const window = trained?.historyWindow ?? 0;
          return createModelServer({
            logger,
            ...(flags.checkpoint ? { checkpoint: trained?.checkpoint ?? flags.checkpoint } : { preset: flags.preset ?? 'small' }),
            ...(trained ? { prepareMessages: (messages: Message[]) => applyPromptView(applyHistoryWindow(messages, window), view) } : {}),
            ...(flags.modelName ? { modelName: flags.modelName } : {}),
            ...(trained ? { metadata: { trainedOn: trainedOn(trained) } } : {}),
          });
        },
        flags,
        'model server',
      ),
    );
  return serve;
}

/** The env settings a checkpoint's run trained on, as the model card reports them. */
function trainedOn(trained: TrainedRun): Record<string, unknown> {
  return {
    env: { id: trained.envId ?? null, options: trained.envOptions, maxTurns: trained.maxTurns ?? null },
    tools: trained.tools,
    ...(Object.keys(trained.toolOptions).length > 0 ? { toolOptions: trained.toolOptions } : {}),
    ...(trained.plugins.length > 0 ? { plugins: trained.plugins } : {}),
    policyView: trained.policyView ?? 'image',
    historyWindow: trained.historyWindow ?? 0,
  };
}

function describeTrainedEnv(trained: TrainedRun): string {
  const tools = trained.tools.length > 0 ? `, tools ${trained.tools.join(', ')}` : '';
  return `${trained.envId ?? 'an env its config does not name'} with options ${JSON.stringify(trained.envOptions)}, ${trained.maxTurns ?? "the env's"} turns${tools}`;
}

/** One `saccade serve env` process on a free loopback port, for `--workers`. */
async function startEnvWorker(plugins: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  // No API key on the workers (loopback only): the router checks it. They load the plug-ins this process did.
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'serve', 'env', '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SACCADE_API_KEY: '', [PLUGINS_VARIABLE]: plugins.join(',') },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string | undefined;
  const url = first === undefined ? undefined : /listening on (\S+)/.exec(first)?.[1];
  if (url === undefined) {
    child.kill('SIGTERM');
    throw new Error(`An env service worker did not start (its first line: ${JSON.stringify(first ?? '')}).`);
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
