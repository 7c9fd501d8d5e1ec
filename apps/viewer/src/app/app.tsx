import { useEffect, useState } from 'react';
import { RunsPage } from './runs-page';
import { RunPage } from './run-page';

/** `#/` the runs; `#/run/<name>` a run's episodes; `#/run/<name>/<episode id>` one episode open. */
function parseHash(hash: string): { run?: string; episode?: string } {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((part) => part.length > 0).map(decodeURIComponent);
  if (parts[0] !== 'run' || parts[1] === undefined) return {};
  return parts[2] === undefined ? { run: parts[1] } : { run: parts[1], episode: parts[2] };
}

export function App() {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return (
    <div className="app">
      <header className="top">
        <a href="#/" className="brand">saccade view</a>
        {route.run !== undefined && <span className="crumb">/ {route.run}</span>}
      </header>
      {route.run === undefined ? <RunsPage /> : <RunPage key={route.run} run={route.run} episodeId={route.episode} />}
    </div>
  );
}

export function episodeHash(run: string, episode?: string): string {
  return `#/run/${encodeURIComponent(run)}${episode === undefined ? '' : `/${encodeURIComponent(episode)}`}`;
}
