import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
// VAGEN main's GymService around a small Python env: the env-remote package's test service.
import { deadUrl, lineWalkSuite, startLineWalkService, type LineWalkService } from '../../../../packages/envs/remote/test/line-walk-service';
import { runCli } from '../create-program';
import { EXIT_FAILURE, EXIT_SUCCESS } from '../exit-codes';

// Its own services (killed and restarted on one port), not one around the suite.
const { skip, python } = await lineWalkSuite("saccade eval --resume after VAGEN main's GymService was killed");
const scratch = mkdtempSync(join(tmpdir(), 'saccade-remote-resume-'));
const KEY = 'resume-key';
const EPISODES = 20;
const services: LineWalkService[] = [];

interface Stored {
  error?: { name: string; message: string };
  metadata: { evalSeed: number; sample: number };
}

function stored(file: string): Stored[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as Stored)
    : [];
}

describe.skipIf(skip)("saccade eval when VAGEN main's GymService dies mid-way, then --resume", () => {
  afterAll(async () => {
    for (const service of services) await service.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('the episodes on the killed server fail naming it, the others complete, and --resume on a restarted server plays exactly the failed ones', { timeout: 60_000 }, async () => {
    const url = await deadUrl();
    const port = Number(new URL(url).port);
    services.push(await startLineWalkService(python, KEY, port));
    const options = {
      baseUrls: url,
      token: KEY,
      retries: 1,
      backoff: 0.05,
      envConfig: { env_name: 'line_walk', length: 6 },
      actionSpace: { kind: 'discrete', actions: ['Left', 'Right'], maxActionsPerTurn: 1, separator: ',', format: 'free_think' },
    };
    const folder = join(scratch, 'remote');
    const file = join(folder, 'trajectories', 'episodes.jsonl');
    const lines: string[] = [];
    const output = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    const eval_ = runCli(
      ['eval', '--env', 'saccade/Remote-v1', '--env-options', JSON.stringify(options), '--agent', 'random', '--episodes', String(EPISODES), '--max-turns', '8', '--concurrency', '2', '--out', scratch, '--name', 'remote', '--plain'],
      output,
    );
    // Kill the server (SIGKILL, as a crashed node) once some episodes are stored.
    let settled = false;
    void eval_.finally(() => (settled = true));
    while (stored(file).length < 6) {
      if (settled) throw new Error(`the eval ended before the server was killed:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await services[0]!.stop();
    const first = await eval_;
    expect(first.exitCode, lines.join('\n')).toBe(EXIT_FAILURE);

    const before = stored(file);
    expect(before).toHaveLength(EPISODES);
    const failed = before.filter((episode) => episode.error !== undefined);
    const completed = before.filter((episode) => episode.error === undefined);
    expect(completed.length).toBeGreaterThanOrEqual(6);
    expect(failed.length).toBeGreaterThan(0);
    for (const { error } of failed) {
      // A clear error: the remote env's class, naming the server it lost.
      expect(error!.name).toBe('Saccade_RemoteEnvError');
      expect(error!.message).toContain(url);
    }
    const summaryBefore = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { episodes: number; failed: number };
    expect([summaryBefore.episodes, summaryBefore.failed]).toEqual([EPISODES, failed.length]);

    // The server is back where the run's config looks for it: --resume plays the failed episodes, and only them.
    services.push(await startLineWalkService(python, KEY, port));
    lines.length = 0;
    const resumed = await runCli(['eval', '--resume', folder, '--plain'], output);
    expect(resumed.exitCode, lines.join('\n')).toBe(EXIT_SUCCESS);
    const after = stored(file);
    const key = (episode: Stored): string => `${episode.metadata.evalSeed}:${episode.metadata.sample}`;
    const replayed = after.slice(EPISODES);
    expect(replayed.map(key).sort()).toEqual(failed.map(key).sort());
    expect(replayed.every((episode) => episode.error === undefined)).toBe(true);
    const played = after.filter((episode) => episode.error === undefined).map(key);
    expect(played).toHaveLength(EPISODES);
    expect(new Set(played).size).toBe(EPISODES);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { status: string; episodes: number; failed: number };
    expect(summary).toMatchObject({ status: 'completed', episodes: EPISODES, failed: 0 });
    const sessions = (await (await fetch(`${url}/sessions?token=${KEY}`)).json()) as { num_sessions: number };
    expect(sessions.num_sessions).toBe(0);
  });
});
