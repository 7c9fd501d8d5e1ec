import { render } from 'ink';
import type { ImageLoader, ImageMode } from './components/episode-panel';
import { TrainingApp } from './components/training-app';
import type { RunControl } from './run-control';
import { combineFeeds, feedFromSource, type RunEventSource, type RunFeed } from './run-feed';
import { runFolderFeed, runFolderImageLoader } from './run-folder-feed';
import type { RunInfo } from './run-state';

export interface RenderTrainingTuiOptions {
  /** The run's events: an async iterable, or an emitter of `event` (in-process). */
  events: RunEventSource;
  control: RunControl;
  runInfo?: RunInfo;
  /** The run folder, if any: the episode view reads its trajectories and images from it. */
  runFolder?: string;
  /** Quitting stops the run. Default true: in-process, the UI is the run's window. */
  quitStopsRun?: boolean;
  /** Close the UI when the run ends. Default true. */
  exitOnRunEnd?: boolean;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

export interface TrainingTui {
  /** Resolves when the UI has closed: the user quit, or the run ended (with `exitOnRunEnd`). */
  waitUntilExit(): Promise<{ stopRequested: boolean }>;
  /** Closes the UI now. */
  unmount(): void;
}

/** Shows a run that this process drives, from the events it emits. */
export function renderTrainingTui(options: RenderTrainingTuiOptions): TrainingTui {
  let feed = feedFromSource(options.events);
  if (options.runFolder !== undefined) feed = combineFeeds(feed, runFolderFeed(options.runFolder, { events: false }));
  return mount(feed, {
    control: options.control,
    quitStopsRun: options.quitStopsRun ?? true,
    exitOnRunEnd: options.exitOnRunEnd ?? true,
    ...(options.runInfo ? { runInfo: options.runInfo } : {}),
    ...(options.runFolder !== undefined ? { loadImage: runFolderImageLoader(options.runFolder) } : {}),
    ...(options.stdout ? { stdout: options.stdout } : {}),
    ...(options.stdin ? { stdin: options.stdin } : {}),
  });
}

export interface MountOptions {
  control: RunControl;
  quitStopsRun: boolean;
  exitOnRunEnd: boolean;
  runInfo?: RunInfo;
  loadImage?: ImageLoader;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

export function mount(feed: RunFeed, options: MountOptions): TrainingTui {
  const stdout = options.stdout ?? process.stdout;
  let stopRequested = false;
  const instance = render(
    <TrainingApp
      feed={feed}
      control={options.control}
      quitStopsRun={options.quitStopsRun}
      exitOnRunEnd={options.exitOnRunEnd}
      imageMode={imageModeFor(stdout)}
      onQuit={(stop) => {
        stopRequested = stop;
      }}
      {...(options.runInfo ? { runInfo: options.runInfo } : {})}
      {...(options.loadImage ? { loadImage: options.loadImage } : {})}
    />,
    {
      stdout,
      ...(options.stdin ? { stdin: options.stdin } : {}),
      // The app handles Ctrl-C itself, so that it stops the run cleanly instead of killing it.
      exitOnCtrlC: false,
      // Ink redraws at most this often; the app batches events to the same pace.
      maxFps: 10,
    },
  );
  return {
    waitUntilExit: async () => {
      await instance.waitUntilExit();
      return { stopRequested };
    },
    unmount: () => instance.unmount(),
  };
}

/** Half-block thumbnails need colours; a terminal without them gets the text description. */
function imageModeFor(stdout: NodeJS.WriteStream): ImageMode {
  if (process.env.SACCADE_TUI_IMAGES === 'text') return 'text';
  return typeof stdout.hasColors === 'function' && stdout.hasColors(256) ? 'blocks' : 'text';
}
