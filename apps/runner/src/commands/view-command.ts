import { Command, InvalidArgumentError } from 'commander';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

export interface ViewCommandOptions {
  /** Stops the viewer (tests); by default Ctrl-C (SIGINT) or SIGTERM does. */
  signal?: AbortSignal;
}

const DEFAULT_PORT = 8765;

function port(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError(`expected a port number 0–65535, received "${value}"`);
  return number;
}

/** `saccade view [folder]`: the browser trajectory viewer on a run folder or a folder of runs. */
export function viewCommand(output: Output, setExitCode: (code: number) => void, { signal }: ViewCommandOptions = {}): Command {
  return new Command('view')
    .description('browse runs and their episodes in a web browser: images with zoom boxes, tool calls, rewards, token masks, curves (live)')
    .argument('[folder]', 'a run folder, or a folder of runs', 'runs')
    .option('--host <host>', 'address to listen on (the viewer shows run data to whoever reaches it)', '127.0.0.1')
    .option('--port <port>', `port to listen on (0: any free port; default ${DEFAULT_PORT}, or a free one when taken)`, port)
    .action(async (folder: string, options: { host: string; port?: number }) => {
      // Loaded only here: the other commands never need the viewer.
      const { startViewer } = await import('@saccade/viewer');
      let viewer: Awaited<ReturnType<typeof startViewer>>;
      try {
        try {
          viewer = await startViewer({ path: folder, host: options.host, port: options.port ?? DEFAULT_PORT });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port !== undefined) throw error;
          viewer = await startViewer({ path: folder, host: options.host, port: 0 });
        }
      } catch (error) {
        output.error((error as Error).message);
        setExitCode(EXIT_USAGE);
        return;
      }
      output.log(`saccade view: ${viewer.url} (${folder}; Ctrl-C stops)`);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          signal?.removeEventListener('abort', stop);
          done();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        signal?.addEventListener('abort', stop);
        if (signal?.aborted) stop();
      });
      await viewer.close();
      setExitCode(EXIT_SUCCESS);
    });
}
