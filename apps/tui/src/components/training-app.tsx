import { Box, Text, useApp, useInput, useStdin, useStdout, type Key } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunControl } from '../run-control';
import type { RunFeed } from '../run-feed';
import { addTrajectory, CHART_NAMES, initialRunState, reduceRunState, type ChartName, type RunInfo, type RunState } from '../run-state';
import { ChartPanel } from './chart-panel';
import { EpisodePanel, type ImageLoader, type ImageMode } from './episode-panel';
import { EventLog } from './event-log';
import { RunHeader } from './run-header';
import { ThroughputPanel } from './throughput-panel';

export interface TrainingAppProps {
  feed: RunFeed;
  control: RunControl;
  runInfo?: RunInfo;
  loadImage?: ImageLoader;
  imageMode?: ImageMode;
  /**
   * In-process, quitting stops the run (the UI is the run's only window). Attached to a folder,
   * quitting leaves the run going unless the user picks `x` (stop it too).
   */
  quitStopsRun?: boolean;
  /** Close the UI once the run ends (in-process: the command goes on to print its summary). */
  exitOnRunEnd?: boolean;
  /** Milliseconds between redraws at most. Default 100 (10 per second). */
  redrawIntervalMs?: number;
  /** Fixed size instead of the terminal's (tests). */
  columns?: number;
  rows?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Called once the user quit, with whether the run was asked to stop. */
  onQuit?: (stopRequested: boolean) => void;
}

/** The whole screen: header, charts, throughput, the selected episode, the event log, the keys. */
export function TrainingApp(props: TrainingAppProps) {
  const { feed, control, quitStopsRun = false, exitOnRunEnd = false, redrawIntervalMs = 100 } = props;
  const clock = props.now ?? Date.now;
  const { exit } = useApp();
  const size = useTerminalSize();
  const columns = props.columns ?? size.columns;
  const rows = props.rows ?? size.rows;

  // Events fold into a ref as they come; React sees the state at most once per interval, so a
  // burst of thousands of events costs one redraw, not thousands.
  const live = useRef<RunState>(initialRunState(props.runInfo));
  const [state, setState] = useState<RunState>(live.current);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const lastFlush = useRef(0);
  const scheduleFlush = useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, redrawIntervalMs - (Date.now() - lastFlush.current));
    timer.current = setTimeout(() => {
      timer.current = undefined;
      lastFlush.current = Date.now();
      setState(live.current);
    }, wait);
  }, [redrawIntervalMs]);

  useEffect(() => {
    const stop = feed({
      event: (event) => {
        live.current = reduceRunState(live.current, event);
        scheduleFlush();
      },
      trajectory: (trajectory) => {
        live.current = addTrajectory(live.current, trajectory);
        scheduleFlush();
      },
      warning: (message) => {
        live.current = reduceRunState(live.current, { type: 'log', time: new Date(clock()).toISOString(), level: 'warn', message });
        scheduleFlush();
      },
    });
    return () => {
      stop();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [feed, scheduleFlush, clock]);

  // The elapsed time ticks while the run goes.
  const [now, setNow] = useState(clock());
  useEffect(() => {
    if (state.status !== 'running') return;
    const interval = setInterval(() => setNow(clock()), 1000);
    return () => clearInterval(interval);
  }, [state.status, clock]);

  const [chart, setChart] = useState<ChartName>('reward');
  const [paused, setPaused] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [confirmingQuit, setConfirmingQuit] = useState(false);
  const [quitting, setQuitting] = useState(false);
  // undefined: follow the newest episode; otherwise the id the user stepped to.
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);

  const act = useCallback((what: string, action: () => void | Promise<void>) => {
    setNotice(`${what}…`);
    Promise.resolve()
      .then(action)
      .then(
        () => setNotice(`${what}: requested`),
        (error: unknown) => setNotice(`${what} failed: ${(error as Error).message}`),
      );
  }, []);

  const [closing, setClosing] = useState(false);
  const quit = useCallback(
    (stopRun: boolean) => {
      setQuitting(true);
      setConfirmingQuit(false);
      setNotice(stopRun ? 'stopping the run…' : 'bye');
      const done = (): void => {
        props.onQuit?.(stopRun);
        setClosing(true);
      };
      if (!stopRun) return done();
      Promise.resolve()
        .then(() => control.stop())
        .catch(() => undefined)
        .finally(done);
    },
    [control, props],
  );

  // Exit one redraw after the last change: Ink throttles frames, and a frame still pending when
  // the app exits would be drawn over whatever the caller prints next.
  useEffect(() => {
    if (!closing) return;
    const timeout = setTimeout(() => exit(), redrawIntervalMs + 50);
    return () => clearTimeout(timeout);
  }, [closing, exit, redrawIntervalMs]);

  useEffect(() => {
    if (!exitOnRunEnd || quitting) return;
    if (state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled') {
      // Let the final frame draw first, so it stays on screen above what the caller prints next.
      const timeout = setTimeout(() => exit(), redrawIntervalMs + 50);
      return () => clearTimeout(timeout);
    }
  }, [exitOnRunEnd, quitting, state.status, exit, redrawIntervalMs]);

  const episodes = state.episodes;
  const found = selectedId === undefined ? -1 : episodes.findIndex((episode) => episode.id === selectedId);
  const selected = found >= 0 ? found : Math.max(0, episodes.length - 1);

  // Ink re-subscribes a new handler in an effect after each render; a key that lands before that
  // effect runs would meet the previous render's state. One stable handler reading a ref that is
  // updated during render always sees the newest state.
  const onKey = useRef<(input: string, key: Key) => void>(() => {});
  onKey.current = (input, key) => {
    if (quitting) return;
    if (key.ctrl && input === 'c') return quit(quitStopsRun);
    if (confirmingQuit) {
      if (input === 'y' || input === 'Y') quit(quitStopsRun);
      else if (!quitStopsRun && (input === 'x' || input === 'X')) quit(true);
      else if (input === 'n' || input === 'N' || key.escape || input === 'q') setConfirmingQuit(false);
      return;
    }
    if (input === 'q') return setConfirmingQuit(true);
    if (input === 'p') {
      if (paused) act('resume', () => control.resume());
      else act('pause', () => control.pause());
      setPaused(!paused);
    } else if (input === 's') act('checkpoint', () => control.saveCheckpoint());
    else if (key.leftArrow || input === '[') {
      const previous = episodes[Math.max(0, selected - 1)];
      if (previous) setSelectedId(previous.id);
    } else if (key.rightArrow || input === ']') {
      const next = episodes[selected + 1];
      setSelectedId(next === undefined || selected + 1 === episodes.length - 1 ? undefined : next.id);
    } else if (key.tab || input === 'c') {
      const step = key.shift ? CHART_NAMES.length - 1 : 1;
      setChart(CHART_NAMES[(CHART_NAMES.indexOf(chart) + step) % CHART_NAMES.length]!);
    } else if (/^[1-5]$/.test(input)) setChart(CHART_NAMES[Number(input) - 1]!);
  };
  const handleKey = useCallback((input: string, key: Key) => onKey.current(input, key), []);
  // Without a terminal on stdin (piped, CI) there are no keys to read, and asking Ink for raw
  // mode would throw.
  const { isRawModeSupported } = useStdin();
  useInput(handleKey, { isActive: isRawModeSupported === true });

  // One row spare: a frame as tall as the terminal makes Ink clear the whole screen each redraw.
  const height = Math.max(12, rows - 1);
  const logHeight = Math.max(3, Math.min(8, Math.floor(height / 5)));
  const mainHeight = height - 2 /* header */ - 1 /* throughput */ - logHeight - 1 /* keys */;
  const sideBySide = columns >= 90;
  const chartWidth = sideBySide ? Math.floor(columns * 0.55) : columns;
  const episodeWidth = sideBySide ? columns - chartWidth - 1 : columns;
  const chartHeight = sideBySide ? mainHeight : Math.max(5, Math.floor(mainHeight / 2));
  const episodeHeight = sideBySide ? mainHeight : mainHeight - chartHeight;

  return (
    <Box flexDirection="column" width={columns} height={height}>
      <RunHeader state={state} now={Math.max(now, clock())} paused={paused} width={columns} />
      <ThroughputPanel state={state} width={columns} />
      <Box flexDirection={sideBySide ? 'row' : 'column'} height={mainHeight}>
        <ChartPanel state={state} chart={chart} width={chartWidth} height={chartHeight} />
        {sideBySide ? <Box width={1} /> : null}
        <EpisodePanel
          episodes={episodes}
          selected={selected}
          width={episodeWidth}
          height={episodeHeight}
          {...(props.loadImage ? { loadImage: props.loadImage } : {})}
          {...(props.imageMode ? { imageMode: props.imageMode } : {})}
        />
      </Box>
      <EventLog log={state.log} width={columns} height={logHeight} />
      <KeyLine confirmingQuit={confirmingQuit} quitStopsRun={quitStopsRun} paused={paused} notice={notice} width={columns} />
    </Box>
  );
}

function KeyLine({ confirmingQuit, quitStopsRun, paused, notice, width }: { confirmingQuit: boolean; quitStopsRun: boolean; paused: boolean; notice: string | undefined; width: number }) {
  if (confirmingQuit) {
    return (
      <Box width={width}>
        <Text wrap="truncate" color="yellow" bold>
          {quitStopsRun ? 'Stop the run and quit? y: yes · n: no' : 'Quit watching? y: quit, the run goes on · x: stop the run and quit · n: no'}
        </Text>
      </Box>
    );
  }
  return (
    <Box width={width}>
      <Text wrap="truncate">
        <Text bold>p</Text>
        <Text dimColor>{paused ? ' resume · ' : ' pause · '}</Text>
        <Text bold>s</Text>
        <Text dimColor> checkpoint · </Text>
        <Text bold>←/→</Text>
        <Text dimColor> episodes · </Text>
        <Text bold>tab</Text>
        <Text dimColor> chart · </Text>
        <Text bold>q</Text>
        <Text dimColor> quit</Text>
        {notice ? <Text color="yellow">{`  ${notice}`}</Text> : null}
      </Text>
    </Box>
  );
}

function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => terminalSize(stdout));
  useEffect(() => {
    const onResize = (): void => setSize(terminalSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

function terminalSize(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}
