import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, type EpisodeSummary, type MetricsRowOut, type RunInfo } from './api';
import { episodeHash } from './app';
import { Curves } from './curves';
import { emptyFilter, filterEpisodes, type EpisodeFilter } from './episode-filter';
import { EpisodeView } from './episode-view';
import { MctsTrees } from './mcts-tree-view';
import { number, percent } from './format';
import { usePoll } from './use-poll';

const ROW_HEIGHT = 28;

/** A run: its curves and the episode browser (filters, list, the open episode); live. */
export function RunPage({ run, episodeId }: { run: string; episodeId: string | undefined }) {
  const [info, setInfo] = useState<RunInfo | undefined>();
  const [episodes, setEpisodes] = useState<EpisodeSummary[]>([]);
  const [metrics, setMetrics] = useState<MetricsRowOut[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [filter, setFilter] = useState<EpisodeFilter>(emptyFilter);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<Set<number> | undefined>();
  const [tab, setTab] = useState<'episodes' | 'curves' | 'trees'>('episodes');
  const counts = useRef({ episodes: 0, metrics: 0 });

  usePoll(
    async () => {
      try {
        const [page, rows] = await Promise.all([api.episodes(run, counts.current.episodes), api.metrics(run, counts.current.metrics)]);
        setInfo(page.info);
        if (page.episodes.length > 0) {
          counts.current.episodes += page.episodes.length;
          setEpisodes((previous) => [...previous, ...page.episodes]);
        }
        if (rows.rows.length > 0) {
          counts.current.metrics += rows.rows.length;
          setMetrics((previous) => [...previous, ...rows.rows]);
        }
        setError(undefined);
      } catch (caught) {
        setError((caught as Error).message);
      }
    },
    1000,
    [run],
  );

  // The text search runs on the server (it holds the model text); re-run when episodes arrive.
  useEffect(() => {
    if (query.trim() === '') {
      setMatches(undefined);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      void api.search(run, query).then((result) => current && setMatches(new Set(result.indexes)));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [run, query, episodes.length]);

  const shown = useMemo(() => filterEpisodes(episodes, filter, matches), [episodes, filter, matches]);
  const families = useMemo(() => [...new Set(episodes.map((episode) => episode.family ?? episode.envId))].sort(), [episodes]);
  const tools = useMemo(() => [...new Set(episodes.flatMap((episode) => episode.tools))].sort(), [episodes]);
  // A training run's stored episodes: their phases, steps and (within the chosen step) groups.
  const phases = useMemo(() => [...new Set(episodes.flatMap((episode) => (episode.phase === undefined ? [] : [episode.phase])))].sort(), [episodes]);
  const steps = useMemo(() => [...new Set(episodes.flatMap((episode) => (episode.step === undefined ? [] : [episode.step])))].sort((a, b) => a - b), [episodes]);
  const groups = useMemo(
    () => [...new Set(episodes.flatMap((episode) => (episode.groupId !== undefined && episode.phase === 'grpo' && (filter.step === '' || episode.step === Number(filter.step)) ? [episode.groupId] : [])))],
    [episodes, filter.step],
  );
  const position = shown.findIndex((episode) => episode.id === episodeId);

  const go = useCallback(
    (offset: number) => {
      if (shown.length === 0) return;
      const next = position === -1 ? (offset > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, position + offset));
      window.location.hash = episodeHash(run, shown[next]!.id);
    },
    [shown, position, run],
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target !== null && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
      if (event.key === 'j' || event.key === 'ArrowDown') {
        event.preventDefault();
        go(1);
      } else if (event.key === 'k' || event.key === 'ArrowUp') {
        event.preventDefault();
        go(-1);
      } else if (event.key === 'Escape') {
        window.location.hash = episodeHash(run);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, run]);

  const set = (patch: Partial<EpisodeFilter>) => setFilter((previous) => ({ ...previous, ...patch }));
  if (error !== undefined && info === undefined) return <p className="error">{error}</p>;
  return (
    <main className="run-page">
      <section className="run-head">
        <h1>{run}</h1>
        {info !== undefined && (
          <p className="run-facts" data-testid="run-facts">
            <span>{info.kind}</span> · <span>{info.envIds.join(', ') || 'no env yet'}</span> · <span>{info.agentIds.join(', ')}</span> ·{' '}
            <span className={`status ${info.status}`}>{info.status}</span> · <span data-testid="episode-count">{info.episodes}</span> episodes ·{' '}
            {info.episodes > 0 && (
              <span>
                success {percent(info.successes / info.episodes)}
                {info.successInterval && ` (95% ${percent(info.successInterval[0])} – ${percent(info.successInterval[1])})`}
              </span>
            )}
          </p>
        )}
        <nav className="tabs">
          <button className={tab === 'episodes' ? 'active' : ''} onClick={() => setTab('episodes')}>
            episodes
          </button>
          <button className={tab === 'curves' ? 'active' : ''} onClick={() => setTab('curves')}>
            curves ({metrics.length})
          </button>
          {info?.kind === 'data' && (
            <button className={tab === 'trees' ? 'active' : ''} onClick={() => setTab('trees')}>
              MCTS trees
            </button>
          )}
        </nav>
      </section>
      {tab === 'trees' ? (
        <MctsTrees run={run} />
      ) : tab === 'curves' ? (
        <Curves rows={metrics} />
      ) : (
        <div className="browser">
          <aside className="side">
            <div className="filters" data-testid="filters">
              <label>
                outcome
                <select aria-label="outcome" value={filter.outcome} onChange={(event) => set({ outcome: event.target.value as EpisodeFilter['outcome'] })}>
                  <option value="all">all</option>
                  <option value="success">successes</option>
                  <option value="failure">failures</option>
                  <option value="error">stopped on an error</option>
                </select>
              </label>
              <label>
                env / family
                <select aria-label="family" value={filter.family} onChange={(event) => set({ family: event.target.value })}>
                  <option value="">all</option>
                  {families.map((family) => (
                    <option key={family}>{family}</option>
                  ))}
                </select>
              </label>
              <label>
                tool used
                <select aria-label="tool" value={filter.tool} onChange={(event) => set({ tool: event.target.value })}>
                  <option value="">any</option>
                  <option value="(none)">none</option>
                  {tools.map((tool) => (
                    <option key={tool}>{tool}</option>
                  ))}
                </select>
              </label>
              {phases.length > 0 && (
                <label>
                  phase
                  <select aria-label="phase" value={filter.phase} onChange={(event) => set({ phase: event.target.value })}>
                    <option value="">all</option>
                    {phases.map((phase) => (
                      <option key={phase} value={phase}>
                        {phase === 'eval' ? 'evaluations' : phase.toUpperCase()}
                      </option>
                    ))}
                    <option value="trained">trained on</option>
                    <option value="left-out">left out of the update</option>
                  </select>
                </label>
              )}
              {steps.length > 0 && (
                <label>
                  step
                  <select aria-label="step" value={filter.step} onChange={(event) => set({ step: event.target.value, group: '' })}>
                    <option value="">all</option>
                    {steps.map((step) => (
                      <option key={step} value={String(step)}>
                        {step}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {groups.length > 0 && (
                <label>
                  group
                  <select aria-label="group" value={filter.group} onChange={(event) => set({ group: event.target.value })}>
                    <option value="">all</option>
                    {groups.map((group) => (
                      <option key={group}>{group}</option>
                    ))}
                  </select>
                </label>
              )}
              <label>
                seed
                <input aria-label="seed" inputMode="numeric" value={filter.seed} onChange={(event) => set({ seed: event.target.value })} />
              </label>
              <label className="range">
                reward
                <input aria-label="minimum reward" placeholder="min" value={filter.minReward} onChange={(event) => set({ minReward: event.target.value })} />
                <input aria-label="maximum reward" placeholder="max" value={filter.maxReward} onChange={(event) => set({ maxReward: event.target.value })} />
              </label>
              <label>
                model text
                <input aria-label="search" placeholder="search model output" value={query} onChange={(event) => setQuery(event.target.value)} />
              </label>
              <p className="muted" data-testid="shown-count">
                {shown.length} of {episodes.length} episodes
              </p>
            </div>
            <EpisodeList run={run} episodes={shown} selected={episodeId} />
          </aside>
          <section className="detail">
            {episodeId === undefined ? (
              <p className="muted">Pick an episode (j / k or ↓ / ↑ move between episodes).</p>
            ) : (
              <EpisodeView key={episodeId} run={run} episodeId={episodeId} />
            )}
          </section>
        </div>
      )}
    </main>
  );
}

/** The filtered episodes as a windowed list: only the rows in view are in the page. */
function EpisodeList({ run, episodes, selected }: { run: string; episodes: EpisodeSummary[]; selected: string | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Keep the selected row in view when moving with the keyboard.
  useEffect(() => {
    const element = box.current;
    const index = episodes.findIndex((episode) => episode.id === selected);
    if (element === null || index === -1) return;
    const top = index * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, [selected, episodes]);
  const first = Math.max(0, Math.floor(scroll / ROW_HEIGHT) - 5);
  const last = Math.min(episodes.length, Math.ceil((scroll + height) / ROW_HEIGHT) + 5);
  return (
    <div className="episode-list" ref={box} onScroll={(event) => setScroll(event.currentTarget.scrollTop)} data-testid="episode-list">
      <div style={{ height: episodes.length * ROW_HEIGHT, position: 'relative' }}>
        {episodes.slice(first, last).map((episode, offset) => (
          <a
            key={episode.id}
            href={episodeHash(run, episode.id)}
            className={`episode-row ${episode.success ? 'success' : episode.failed ? 'failed' : 'failure'} ${episode.id === selected ? 'selected' : ''}`}
            style={{ top: (first + offset) * ROW_HEIGHT, height: ROW_HEIGHT }}
            data-episode={episode.id}
          >
            <span className="mark">{episode.success ? '✓' : episode.failed ? '!' : '✗'}</span>
            <span className="seed">seed {episode.seed ?? '–'}</span>
            {episode.step !== undefined && <span className="step">@{episode.step}</span>}
            {episode.advantage !== undefined && <span className={`advantage${episode.trained === false ? ' left-out' : ''}`}>A {number(episode.advantage)}</span>}
            <span className="reward">{number(episode.totalReward)}</span>
            <span className="turns">{episode.turns}t</span>
            <span className="tools">{episode.tools.join(' ')}</span>
          </a>
        ))}
      </div>
    </div>
  );
}
