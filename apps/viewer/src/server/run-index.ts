import { existsSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { trajectorySuccess } from '@saccade/rollout';
import { JsonLinesFollower, RUN_FILES, runPaths, TRAJECTORY_FILES, wilsonInterval, type RunPaths } from '@saccade/runs';
import type { RunEvent, Trajectory } from '@saccade/spec';
import { hasTreeFiles } from './mcts-trees';

/** One episode as the list shows it: what the filters need, without turns or images. */
export interface EpisodeSummary {
  /** Position in the run's list (0-based, stable: new episodes are appended). */
  index: number;
  id: string;
  envId: string;
  seed: number | null;
  agentId: string;
  groupId?: string;
  success: boolean;
  /** Stopped on an error (agent or env). */
  failed: boolean;
  totalReward: number;
  turns: number;
  /** Names of the tools the episode called, each once, in order of first call. */
  tools: string[];
  toolCalls: number;
  terminated: boolean;
  truncated: boolean;
  /** Task family when the env reports one (`info.family`, `metadata.family`); absent: the env id is the family. */
  family?: string;
  /** The training step the episode was played for, when known. */
  step?: number;
  /** What played it in a training run: a GRPO group, a PPO batch, or an evaluation (`trajectory.training`). */
  phase?: 'grpo' | 'ppo' | 'eval';
  /** Whether the trainer trained on it, and why not (`trajectory.training`). */
  trained?: boolean;
  leftOut?: string;
  /** GRPO: its advantage within its group. */
  advantage?: number;
}

/** A run as the runs page shows it. */
export interface RunInfo {
  name: string;
  /** 'eval', 'train', 'data' or 'run' (the config's command, else guessed from the files). */
  kind: string;
  envIds: string[];
  agentIds: string[];
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'unknown';
  episodes: number;
  successes: number;
  /** 95% Wilson interval of the success rate; absent without episodes. */
  successInterval?: [number, number];
  toolCalls: number;
  startedAt?: string;
  updatedAt?: string;
}

/**
 * A line of a run's metrics.jsonl as the viewer's API sends it: kind, step and time when present,
 * and every number the line holds.
 */
export interface MetricsRowOut {
  kind?: string;
  step?: number;
  time?: string;
  [key: string]: unknown;
}

interface StoredEpisode {
  summary: EpisodeSummary;
  /** The trajectory file, relative to the run folder. */
  file: string;
  /** The summary as JSON, made once: a 10,000-episode list is sent by joining these. */
  json: string;
  /** Byte range of its line in the file. */
  offset: number;
  length: number;
  /** Lower-cased model text of every turn, for the text search. */
  text: string;
}

/**
 * What the viewer knows of one run folder: episodes from every `trajectories/*.jsonl`, events and
 * metrics. `refresh()` reads only what the files gained since the last call (complete lines),
 * so a run being written is followed cheaply. Nothing is ever written into the folder.
 */
export class RunIndex {
  readonly name: string;
  readonly path: string;
  readonly #paths: RunPaths;
  readonly #episodes: StoredEpisode[] = [];
  readonly #byId = new Map<string, StoredEpisode>();
  /** The follower of each trajectory file, by its path relative to the run folder. */
  readonly #trajectoryFollowers = new Map<string, JsonLinesFollower>();
  readonly #events: JsonLinesFollower;
  readonly #metrics: JsonLinesFollower;
  readonly #metricsRows: MetricsRowOut[] = [];
  #status: RunInfo['status'] = 'unknown';
  #startedAt: string | undefined;
  #updatedAt: string | undefined;
  #config: Record<string, unknown> | undefined;
  #successes = 0;
  #toolCalls = 0;

  constructor(path: string, name = basename(path)) {
    this.path = path;
    this.name = name;
    this.#paths = runPaths(path);
    this.#events = new JsonLinesFollower(this.#paths.events);
    this.#metrics = new JsonLinesFollower(this.#paths.metrics);
  }

  /** Whether a folder looks like a run: events.jsonl, a trajectories folder or MCTS tree files. */
  static isRunFolder(path: string): boolean {
    const paths = runPaths(path);
    return existsSync(paths.events) || existsSync(paths.trajectories) || hasTreeFiles(path);
  }

  /** Reads what the run's files gained since the last call. Overlapping calls read each line once. */
  async refresh(): Promise<void> {
    await this.#readEvents();
    await this.#readMetrics();
    const folder = this.#paths.trajectories;
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.jsonl')).sort()) {
      const file = `${RUN_FILES.trajectories}/${name}`;
      let follower = this.#trajectoryFollowers.get(file);
      if (follower === undefined) {
        follower = new JsonLinesFollower(join(folder, name));
        this.#trajectoryFollowers.set(file, follower);
      }
      for (const line of await follower.poll()) {
        const trajectory = line.ok ? asTrajectory(line.value) : undefined;
        if (trajectory === undefined || this.#byId.has(trajectory.id)) continue;
        this.#add(trajectory, file, line.offset, line.length);
      }
    }
  }

  info(): RunInfo {
    const envIds = new Set<string>();
    const agentIds = new Set<string>();
    for (const { summary } of this.#episodes) {
      envIds.add(summary.envId);
      agentIds.add(summary.agentId);
    }
    const configEnv = (this.#config?.env as { id?: unknown } | undefined)?.id;
    if (envIds.size === 0 && typeof configEnv === 'string') envIds.add(configEnv);
    const count = this.#episodes.length;
    const info: RunInfo = {
      name: this.name,
      kind: this.#kind(),
      envIds: [...envIds],
      agentIds: [...agentIds],
      status: this.#status,
      episodes: count,
      successes: this.#successes,
      toolCalls: this.#toolCalls,
    };
    if (count > 0) info.successInterval = wilsonInterval(this.#successes, count);
    if (this.#startedAt !== undefined) info.startedAt = this.#startedAt;
    if (this.#updatedAt !== undefined) info.updatedAt = this.#updatedAt;
    return info;
  }

  episodes(after = 0): EpisodeSummary[] {
    return this.#episodes.slice(after).map((episode) => episode.summary);
  }

  /** `episodes(after)` as a JSON array, from the summaries' JSON made when they were read. */
  episodesJson(after = 0): string {
    return `[${this.#episodes.slice(after).map((episode) => episode.json).join(',')}]`;
  }

  get episodeCount(): number {
    return this.#episodes.length;
  }

  /** Total rewards of a group's episodes (GRPO), or undefined without a group. */
  groupRewards(groupId: string | undefined): number[] | undefined {
    if (groupId === undefined) return undefined;
    return this.#episodes.filter((episode) => episode.summary.groupId === groupId).map((episode) => episode.summary.totalReward);
  }

  metrics(after = 0): MetricsRowOut[] {
    return this.#metricsRows.slice(after);
  }

  /** Indexes of the episodes whose model text contains every word of the query (case-insensitive). */
  search(query: string): number[] {
    const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
    if (words.length === 0) return this.#episodes.map((episode) => episode.summary.index);
    return this.#episodes.filter((episode) => words.every((word) => episode.text.includes(word))).map((episode) => episode.summary.index);
  }

  /** The full trajectory, read again from its line (the index keeps only summaries). */
  async trajectory(id: string): Promise<{ trajectory: Trajectory; summary: EpisodeSummary } | undefined> {
    const episode = this.#byId.get(id);
    if (episode === undefined) return undefined;
    const handle = await open(join(this.path, episode.file), 'r');
    try {
      const buffer = Buffer.alloc(episode.length);
      await handle.read(buffer, 0, episode.length, episode.offset);
      const trajectory = parseTrajectory(buffer.toString('utf8'));
      return trajectory === undefined ? undefined : { trajectory, summary: episode.summary };
    } finally {
      await handle.close();
    }
  }

  /** An image file of the run: beside the trajectory files (the store's default) or at the run's top. */
  imagePath(fileName: string): string | undefined {
    if (!/^[0-9a-f]{16,128}\.(png|jpg|webp)$/.test(fileName)) return undefined;
    for (const folder of [join(this.#paths.trajectories, RUN_FILES.images), this.#paths.images]) {
      const file = join(folder, fileName);
      if (existsSync(file) && statSync(file).isFile()) return file;
    }
    return undefined;
  }

  #kind(): string {
    const command = this.#config?.command;
    if (typeof command === 'string') return command;
    if (existsSync(this.#paths.checkpoints)) return 'train';
    if (this.#trajectoryFollowers.has(`${RUN_FILES.trajectories}/${TRAJECTORY_FILES.episodes}.jsonl`)) return 'eval';
    if (hasTreeFiles(this.path)) return 'data';
    return 'run';
  }

  #add(trajectory: Trajectory, file: string, offset: number, length: number): void {
    const tools: string[] = [];
    let toolCalls = 0;
    const texts: string[] = [];
    let family: string | undefined = stringField(trajectory.metadata, 'family');
    for (const turn of trajectory.turns) {
      texts.push(turn.action.toLowerCase());
      family ??= stringField(turn.info, 'family');
      const calls = turn.info.toolCalls;
      if (!Array.isArray(calls)) continue;
      for (const call of calls as { name?: unknown }[]) {
        toolCalls++;
        if (typeof call?.name === 'string' && !tools.includes(call.name)) tools.push(call.name);
      }
    }
    const success = trajectorySuccess(trajectory);
    const summary: EpisodeSummary = {
      index: this.#episodes.length,
      id: trajectory.id,
      envId: trajectory.envId,
      seed: trajectory.seed,
      agentId: trajectory.agentId,
      success,
      failed: trajectory.error !== undefined,
      totalReward: trajectory.totalReward,
      turns: trajectory.turns.length,
      tools,
      toolCalls,
      terminated: trajectory.terminated,
      truncated: trajectory.truncated,
    };
    if (family !== undefined && family !== trajectory.envId) summary.family = family;
    if (trajectory.groupId !== undefined) summary.groupId = trajectory.groupId;
    const step = trajectory.training?.step ?? trajectory.metadata?.step;
    if (typeof step === 'number') summary.step = step;
    const training = trajectory.training;
    if (training !== undefined) {
      summary.phase = training.phase;
      if (training.trained !== undefined) summary.trained = training.trained;
      if (training.leftOut !== undefined) summary.leftOut = training.leftOut;
      if (training.advantage !== undefined) summary.advantage = training.advantage;
    }
    const stored: StoredEpisode = { summary, file, json: JSON.stringify(summary), offset, length, text: texts.join('\n') };
    this.#episodes.push(stored);
    this.#byId.set(summary.id, stored);
    if (success) this.#successes++;
    this.#toolCalls += toolCalls;
    const ended = trajectory.endedAt ?? trajectory.startedAt;
    if (this.#updatedAt === undefined || ended > this.#updatedAt) this.#updatedAt = ended;
  }

  async #readEvents(): Promise<void> {
    for (const line of await this.#events.poll()) {
      // A line that is not JSON is skipped; the rest of the file still shows.
      if (!line.ok || typeof line.value !== 'object' || line.value === null) continue;
      const event = line.value as RunEvent;
      if (typeof event.time === 'string' && (this.#updatedAt === undefined || event.time > this.#updatedAt)) this.#updatedAt = event.time;
      if (event.type === 'run-start') {
        this.#status = 'running';
        this.#startedAt ??= event.time;
        if (typeof event.config === 'object' && event.config !== null) this.#config = event.config as Record<string, unknown>;
      } else if (event.type === 'run-end') {
        this.#status = event.status;
      }
    }
  }

  async #readMetrics(): Promise<void> {
    for (const line of await this.#metrics.poll()) {
      // A line that is not JSON is skipped; the rest of the file still shows.
      if (line.ok && typeof line.value === 'object' && line.value !== null && !Array.isArray(line.value)) this.#metricsRows.push(line.value as MetricsRowOut);
    }
  }
}

/** The runs under a path: the path itself when it is a run folder, else its sub-folders that are. */
export function findRunFolders(path: string): { name: string; path: string }[] {
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new Error(`saccade view: expected a run folder or a folder of runs, but ${path} is not a folder.`);
  }
  if (RunIndex.isRunFolder(path)) return [{ name: basename(path), path }];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && RunIndex.isRunFolder(join(path, entry.name)))
    .map((entry) => ({ name: entry.name, path: join(path, entry.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A trajectory line's value as a trajectory, or undefined when it is none (no id or no turns). */
function asTrajectory(value: unknown): Trajectory | undefined {
  const trajectory = value as Trajectory;
  if (typeof trajectory !== 'object' || trajectory === null || typeof trajectory.id !== 'string' || !Array.isArray(trajectory.turns)) return undefined;
  return trajectory;
}

function parseTrajectory(text: string): Trajectory | undefined {
  try {
    return asTrajectory(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
