import { basename } from 'node:path';
import { OracleNotFoundError, TrajectoryFileError } from '@saccade/agents';
import { envToolsConflict, ToolNotFoundError } from '@saccade/core';
import { trajectorySuccess } from '@saccade/rollout';
import { EnvNotFoundError, SaccadeError, type RunEvent } from '@saccade/spec';
import { Command } from 'commander';
import { parseToolOptions, registerBuiltinTools } from '../builtin-tools';
import { ConfigError } from '../config-error';
import { loadPlugins, requestedPlugins } from '../plugins';
import { createEvalAgent, type EvalAgent } from '../eval/eval-agent';
import type { EvalConfig } from '../eval/eval-config';
import { summarizeEval, type EvalSummary } from '@saccade/runs';
import { readEvalConfig, resolveEvalConfig, type EvalFlags } from '../eval/resolve-eval-config';
import { evalEnvFactory, planEval, readEvalTrajectories, runEval, trajectoriesPath } from '../eval/run-eval';
import { writeEvalPlots } from '../eval/write-eval-plots';
import { EXIT_CANCELLED, EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { inCi } from '../train-display';
import { createEpisodeProgress } from '../progress-printer';
import { RunFolder } from '../run-folder';
import { JUDGE_FLAG_HELP, judgeOptionFromFlags, type JudgeFlags } from '../judge/judge-settings';
import { createRunEventHooks } from '../run-event-hooks';

const integer = (value: string): number => Number(value);

/** `saccade eval`: an env or task file × an agent → success with confidence intervals, per family, pass@k, tool use. */
export function evalCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('eval')
    .description('evaluate an agent on an env or a task file: success with 95% intervals, per task family, pass@k, tool use')
    .option('--env <id>', 'env id (see saccade envs list)')
    .option('--env-from <run>', "a training run folder: play its env as the run did (env, options, turn cap, tools, plug-ins); --env-options and --tools override")
    .option('--tasks <file>', 'a task file (JSONL, see docs/vqa.md): runs saccade/VisionQA-v1 over it, each task once by default')
    .option('--env-options <json>', 'options for the env, e.g. \'{"observation": "text"}\'')
    .option('--agent <kind>', 'oracle | random | openai | policy | transformers')
    .option('--base-url <url>', 'openai: the server, e.g. http://localhost:8000/v1')
    .option('--model <name>', 'openai: the model name the server knows')
    .option('--checkpoint <folder>', 'policy: a checkpoint folder, or a training run folder (its newest checkpoint, env and view)')
    .option('--model-path <folder>', 'transformers: a local ONNX export (SmolVLM, Qwen2-VL, Florence-2: config.json, tokenizer, onnx/*.onnx)')
    .option('--dtype <dtype>', "transformers: which ONNX weights, fp32 | fp16 | q8 | q4 | q4f16 (default: the folder's)")
    .option('--policy-view <view>', 'policy: what the model reads, image | full (default: the run\'s, else image)')
    .option('--temperature <x>', 'sampling temperature (policy default 0: greedy)', Number)
    .option('--max-tokens <n>', "most tokens per response (a policy from a training run: the run's evaluation budget; else 48)", integer)
    .option('--episodes <n>', 'seeds to play (default 100, or every task of --tasks)', integer)
    .option('--samples <k>', 'episodes per seed; k > 1 reports pass@1 … pass@k', integer)
    .option('--seed <n>', 'first seed (seeds seed … seed + episodes − 1)', integer)
    .option('--max-turns <n>', "turn cap per episode (default: the env's)", integer)
    .option('--concurrency <n>', 'episodes in flight (default 8; 1 for policy and transformers)', integer)
    .option('--tools <names>', 'comma-separated tools the agent may call (see saccade tools list)')
    .option('--tool-options <json>', 'settings of tools by name, JSON or @file, e.g. \'{"remote-vlm": {"url": "http://localhost:8000/v1", "apiKeyEnv": "OPENAI_API_KEY"}}\'')
    .option('--name <name>', 'run name (default: eval-<time>)')
    .option('--out <folder>', 'folder that holds run folders (default: runs)')
    .option('--resume <run folder>', 'continue an interrupted eval: plays only the episodes it has not stored (other flags are ignored)')
    .option('--json', 'print the summary as JSON on stdout (progress goes to stderr)')
    .option('--plain', 'plain progress lines even on a terminal')
    .option('--tensorboard <folder>', 'also write the metrics to TensorBoard event files in <folder>/<run name>/')
    .option('--judge-url <url>', JUDGE_FLAG_HELP.url)
    .option('--judge-model <name>', JUDGE_FLAG_HELP.model)
    .option('--judge-api-key-env <name>', JUDGE_FLAG_HELP.apiKeyEnv)
    .action(async (flags: EvalFlags & JudgeFlags & { tensorboard?: string }, command: Command) => {
      // With --json, stdout carries the summary alone.
      const say = flags.json ? (line: string) => output.error(line) : (line: string) => output.log(line);
      const usage = (message: string): void => {
        output.error(message);
        setExitCode(EXIT_USAGE);
      };

      let config: EvalConfig;
      let folder: RunFolder;
      try {
        if (flags.resume !== undefined) {
          config = readEvalConfig(flags.resume);
          await loadPlugins(config.plugins);
          folder = RunFolder.open(flags.resume);
          // Half-written files of the killed process (an image's temporary file) go before the store reopens.
          folder.removeTemporaries();
          folder.cutTornLines();
        } else {
          config = await resolveEvalConfig(flags);
          const toolOptions = parseToolOptions((flags as { toolOptions?: string }).toolOptions);
          if (Object.keys(toolOptions).length > 0) config = { ...config, toolOptions };
          // The run's plug-ins (and --plugin's, SACCADE_PLUGINS') before the env is made; config.yaml keeps them for --resume.
          const plugins = await loadPlugins([...config.plugins, ...requestedPlugins(command)]);
          config = { ...config, plugins: [...new Set(plugins.map((plugin) => plugin.spec))] };
          const judge = judgeOptionFromFlags(flags);
          if (judge !== undefined) config = { ...config, env: { ...config.env, options: { ...config.env.options, judge } } };
          folder = RunFolder.create(config.outputFolder, config.name, { checkpoints: false });
          config = { ...config, name: basename(folder.path) };
        }
      } catch (error) {
        if (ConfigError.isInstance(error) || (error instanceof Error && error.message.startsWith('--tool-options'))) return usage(error.message);
        throw error;
      }

      let agent: EvalAgent;
      let closeTools = async (): Promise<void> => {};
      try {
        const conflict = envToolsConflict(config.env.id, config.tools);
        if (conflict !== undefined) return usage(conflict);
        if (config.tools.length > 0) closeTools = (await registerBuiltinTools(config.toolOptions ?? {})).close;
        agent = await createEvalAgent(config);
        await checkSetup(config, agent);
      } catch (error) {
        await closeTools();
        if (isUsageError(error)) return usage(error.message);
        throw error;
      }
      if (flags.resume === undefined) folder.writeConfig(config);

      const plan = await planEval(config, folder);
      const total = plan.prompts.length;
      const hooks = createRunEventHooks({ tensorboard: flags.tensorboard, runName: config.name });
      const emit = (event: RunEvent): void => hooks.emit(event, (event) => folder.appendEvent(event));
      const terminal = process.stdout.isTTY === true && !flags.plain && !flags.json && !inCi();
      const progress = createEpisodeProgress({ log: say, error: (line) => output.error(line) }, {
        total,
        alreadyDone: plan.done.size,
        interactive: terminal,
        writeStatus: (line) => process.stdout.write(`\r\x1b[2K${line}`),
      });
      say(
        `${flags.resume === undefined ? 'eval' : `resuming eval (${plan.done.size}/${total} episodes done)`} ${folder.path}: ${config.env.id} × ${config.agent.kind}, ${config.episodes} seeds from ${config.seed}${config.samples > 1 ? ` × ${config.samples} samples` : ''}`,
      );

      const controller = new AbortController();
      const stop = (): void => {
        say('\nstopping: ending the episodes in flight (Ctrl-C again to quit at once)');
        controller.abort(new Error('stopped by Ctrl-C'));
        process.once('SIGINT', () => process.exit(EXIT_CANCELLED));
      };
      process.once('SIGINT', stop);
      const started = performance.now();
      emit({ type: 'run-start', time: new Date().toISOString(), runName: config.name, config, ...(plan.done.size > 0 ? { step: plan.done.size } : {}) });
      try {
        const { cancelled } = await runEval(config, plan, agent, {
          emit,
          signal: controller.signal,
          onEpisode: (trajectory) => progress.episodeDone(trajectorySuccess(trajectory)),
        });
        progress.finish();
        const trajectories = await readEvalTrajectories(plan.store);
        const summary = summarizeEval(trajectories, config.samples);
        const status = cancelled ? 'cancelled' : 'completed';
        const report = { status, runName: config.name, env: config.env.id, agent: config.agent.kind, planned: total, seconds: (performance.now() - started) / 1000, ...summary };
        folder.writeSummary(report);
        if (!cancelled) emit({ type: 'eval-end', time: new Date().toISOString(), step: 0, metrics: flatMetrics(summary) });
        emit({ type: 'run-end', time: new Date().toISOString(), status });
        const plots = await writeEvalPlots(folder.path, summary, config);
        if (flags.json) output.log(JSON.stringify({ runFolder: folder.path, ...report, plots }));
        else printSummary(say, summary, config);
        say(`run folder: ${folder.path}`);
        if (cancelled) {
          say(`cancelled after ${trajectories.length}/${total} episodes; continue with: saccade eval --resume ${folder.path}`);
          setExitCode(EXIT_CANCELLED);
        } else if (summary.failed > 0) {
          const first = trajectories.find((trajectory) => trajectory.error !== undefined)?.error;
          output.error(`${summary.failed} of ${summary.episodes} episodes stopped on an error (first: ${first?.name}: ${first?.message}); see ${trajectoriesPath(folder)}`);
          setExitCode(EXIT_FAILURE);
        } else setExitCode(EXIT_SUCCESS);
      } catch (error) {
        progress.finish();
        const message = error instanceof Error ? error.message : String(error);
        emit({ type: 'run-end', time: new Date().toISOString(), status: 'failed', error: { name: (error as Error)?.name ?? 'Error', message } });
        folder.writeSummary({ status: 'failed', error: message });
        throw error;
      } finally {
        process.removeListener('SIGINT', stop);
        hooks.close();
        await plan.store.close();
        agent.close();
        await closeTools();
      }
    });
}

/** Makes one env and the agent for it before anything runs: an unknown id or an env without an oracle is a usage error, not 100 failed episodes. */
async function checkSetup(config: EvalConfig, agent: EvalAgent): Promise<void> {
  const prompt = { envId: config.env.id, seed: config.seed, envOptions: config.env.options, metadata: { evalSeed: config.seed, sample: 0 } };
  const env = evalEnvFactory(config)(prompt);
  try {
    await agent.forEpisode({ episodeId: 'check', groupId: 'check', prompt, promptIndex: 0, sampleIndex: 0, env });
  } finally {
    await env.close();
  }
}

function isUsageError(error: unknown): error is Error {
  return (
    EnvNotFoundError.isInstance(error) ||
    OracleNotFoundError.isInstance(error) ||
    ToolNotFoundError.isInstance(error) ||
    TrajectoryFileError.isInstance(error) ||
    // Bad env options, an unreadable checkpoint: the spec's errors name what was expected.
    SaccadeError.isInstance(error) ||
    (error instanceof Error && (error.message.startsWith('--agent') || error.message.startsWith('--tool-options')))
  );
}

/** The numbers of the summary as eval-end metrics (metrics.jsonl holds flat numbers). */
function flatMetrics(summary: EvalSummary): Record<string, number> {
  const metrics: Record<string, number> = {
    episodes: summary.episodes,
    success: summary.success,
    successLow: summary.interval[0],
    successHigh: summary.interval[1],
    failed: summary.failed,
    meanReward: summary.meanReward,
    meanTurns: summary.meanTurns,
    toolCallsPerEpisode: summary.tools.callsPerEpisode,
    invalidToolCalls: summary.tools.invalidCalls,
  };
  if (summary.formatRate !== null) metrics['formatRate'] = summary.formatRate;
  metrics['endedTerminated'] = summary.endings.terminated;
  metrics['endedTruncated'] = summary.endings.truncated;
  metrics['neverSolved'] = summary.neverSolved.length;
  for (const [k, value] of Object.entries(summary.passAtK ?? {})) metrics[`passAt${k}`] = value;
  return metrics;
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const interval = ([low, high]: readonly [number, number]): string => `95% CI ${pct(low)}–${pct(high)}`;

function printSummary(say: (line: string) => void, summary: EvalSummary, config: EvalConfig): void {
  say(
    `success ${pct(summary.success)} (${summary.successes}/${summary.episodes}, ${interval(summary.interval)}), mean reward ${summary.meanReward.toFixed(2)}, ${summary.meanTurns.toFixed(2)} turns/episode` +
      (summary.formatRate === null ? '' : `, format ${pct(summary.formatRate)}`) +
      (summary.failed > 0 ? `, ${summary.failed} failed` : ''),
  );
  const families = Object.entries(summary.families);
  if (families.length > 1 || (families.length === 1 && families[0]![0] !== config.env.id)) {
    for (const [family, rate] of families) say(`  ${family.padEnd(24)} ${pct(rate.success).padStart(6)} of ${rate.episodes}  (${interval(rate.interval)})`);
  }
  if (summary.passAtK !== undefined) say(Object.entries(summary.passAtK).map(([k, value]) => `pass@${k} ${pct(value)}`).join('  '));
  const { endings, neverSolved } = summary;
  if (endings.success < summary.episodes) {
    const shown = neverSolved.slice(0, 20).join(', ') + (neverSolved.length > 20 ? `, … (${neverSolved.length - 20} more)` : '');
    say(
      `endings: ${endings.success} solved, ${endings.terminated} ended unsolved, ${endings.truncated} cut by the turn limit, ${endings.errored} errors` +
        (neverSolved.length > 0 ? `; never solved: seed${neverSolved.length > 1 ? 's' : ''} ${shown}` : ''),
    );
  }
  const tools = summary.tools;
  if (tools.calls > 0 || config.tools.length > 0) {
    const byTool = Object.entries(tools.byTool).map(([name, counts]) => `${name} ${counts.calls}${counts.invalid > 0 ? ` (${counts.invalid} invalid)` : ''}`);
    say(`tool calls: ${tools.callsPerEpisode.toFixed(2)} per episode, ${tools.invalidCalls} invalid${byTool.length > 0 ? `; ${byTool.join(', ')}` : ''}`);
    const target = tools.target;
    if (target !== null) {
      const split = [target.successWithHit === null ? undefined : `${pct(target.successWithHit)} with a hit`, target.successWithoutHit === null ? undefined : `${pct(target.successWithoutHit)} without`].filter(Boolean);
      say(`looks that held the target: ${pct(target.hitRate)} of episodes${split.length > 0 ? ` (success ${split.join(', ')})` : ''}`);
    }
  }
}
