import { Box, Text } from 'ink';
import { formatDuration } from '../format';
import { elapsedSeconds, etaSeconds, type RunState } from '../run-state';

export interface RunHeaderProps {
  state: RunState;
  /** Milliseconds since the epoch; injected so tests get fixed times. */
  now: number;
  paused: boolean;
  width: number;
}

const STATUS_COLOURS = { waiting: 'gray', running: 'green', completed: 'cyan', failed: 'red', cancelled: 'yellow' } as const;

/** Two lines: the run and its status; where it stands (env, model, backend, step, time, ETA). */
export function RunHeader({ state, now, paused, width }: RunHeaderProps) {
  const { info } = state;
  const steps = info.totalSteps === undefined ? String(state.step) : `${state.step}/${info.totalSteps}`;
  const running = state.status === 'running';
  const eta = running ? formatDuration(etaSeconds(state)) : '–';
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        <Text bold color="magenta">saccade</Text>
        <Text> · </Text>
        <Text bold>{info.name ?? 'run'}</Text>
        <Text> · </Text>
        <Text color={STATUS_COLOURS[state.status]}>{state.status}</Text>
        {paused ? <Text color="yellow" bold> · paused</Text> : null}
        {state.error ? <Text color="red"> · {state.error}</Text> : null}
      </Text>
      <Text wrap="truncate">
        <Text dimColor>env </Text>
        <Text>{info.envId ?? '?'}</Text>
        <Text dimColor> · model </Text>
        <Text>{info.model ?? '?'}</Text>
        <Text dimColor> · backend </Text>
        <Text>{info.backend ?? '?'}</Text>
        <Text dimColor> · step </Text>
        <Text bold>{steps}</Text>
        <Text dimColor> · elapsed </Text>
        <Text>{formatDuration(elapsedSeconds(state, now))}</Text>
        <Text dimColor> · ETA </Text>
        <Text>{eta}</Text>
      </Text>
    </Box>
  );
}
