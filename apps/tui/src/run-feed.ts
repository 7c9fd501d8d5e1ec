import type { RunEvent, Trajectory } from '@saccade/spec';

/** Where the UI's data comes from. */
export interface RunFeedHandlers {
  event(event: RunEvent): void;
  trajectory(trajectory: Trajectory): void;
  /** Something in the input the UI skipped (a malformed line, a source that failed). */
  warning(message: string): void;
}

/** Starts delivering to the handlers; returns a function that stops it. */
export type RunFeed = (handlers: RunFeedHandlers) => () => void;

/** Anything with `on('event', …)`/`off('event', …)`, such as a Node EventEmitter. */
export interface RunEventEmitter {
  on(name: 'event', listener: (event: RunEvent) => void): unknown;
  off(name: 'event', listener: (event: RunEvent) => void): unknown;
}

/** Where in-process events come from: an async iterable of events or an emitter of 'event'. */
export type RunEventSource = AsyncIterable<RunEvent> | RunEventEmitter;

const EVENT_TYPES = new Set([
  'run-start',
  'run-end',
  'episode-start',
  'turn-end',
  'episode-end',
  'rollout-end',
  'update-end',
  'eval-end',
  'checkpoint-saved',
  'log',
]);

/** Checks the shape the reducer relies on; `undefined` when `value` is a run event. */
export function describeInvalidEvent(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `expected a run event object, got ${value === null ? 'null' : typeof value}`;
  const { type, time } = value as { type?: unknown; time?: unknown };
  if (typeof type !== 'string' || !EVENT_TYPES.has(type)) return `expected a run event type (${[...EVENT_TYPES].join(', ')}), got ${JSON.stringify(type)}`;
  if (typeof time !== 'string') return `expected an ISO time in a ${type} event, got ${JSON.stringify(time)}`;
  const metrics = (value as { metrics?: unknown }).metrics;
  if ((type === 'update-end' || type === 'eval-end' || type === 'rollout-end') && (typeof metrics !== 'object' || metrics === null)) {
    return `expected metrics in a ${type} event, got ${JSON.stringify(metrics)}`;
  }
  return undefined;
}

/** A feed from an async iterable of events or an emitter of `event`s (in-process use). */
export function feedFromSource(source: RunEventSource): RunFeed {
  return (handlers) => {
    if (Symbol.asyncIterator in source) {
      let stopped = false;
      void (async () => {
        try {
          for await (const event of source) {
            if (stopped) break;
            handlers.event(event);
          }
        } catch (error) {
          if (!stopped) handlers.warning(`the event source failed: ${(error as Error).message}`);
        }
      })();
      return () => {
        stopped = true;
      };
    }
    const listener = (event: RunEvent): void => handlers.event(event);
    source.on('event', listener);
    return () => {
      source.off('event', listener);
    };
  };
}

/** Delivers from several feeds at once (events from one, trajectories from another). */
export function combineFeeds(...feeds: RunFeed[]): RunFeed {
  return (handlers) => {
    const stops = feeds.map((feed) => feed(handlers));
    return () => stops.forEach((stop) => stop());
  };
}
