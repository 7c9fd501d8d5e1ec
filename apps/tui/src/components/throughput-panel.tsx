import { Box, Text } from 'ink';
import { formatRate } from '../format';
import type { RunState } from '../run-state';

export interface ThroughputPanelProps {
  state: RunState;
  width: number;
}

/** One line: how fast the run goes and what it has done. */
export function ThroughputPanel({ state, width }: ThroughputPanelProps) {
  return (
    <Box width={width}>
    <Text wrap="truncate">
      <Text dimColor>episodes/s </Text>
      <Text bold>{formatRate(state.episodesPerSecond)}</Text>
      <Text dimColor> · tokens/s </Text>
      <Text bold>{formatRate(state.tokensPerSecond)}</Text>
      <Text dimColor> · episodes </Text>
      <Text>{state.episodesDone}</Text>
      <Text dimColor> · checkpoint </Text>
      <Text>{state.lastCheckpoint ? `step ${state.lastCheckpoint.step}` : '–'}</Text>
      {state.logprobGap === undefined ? null : (
        <>
          <Text dimColor> · sampler gap </Text>
          {/* Past 1e-3 the trainer scores other contexts than the sampler's: the run stops there. */}
          <Text color={state.logprobGap > 1e-3 ? 'red' : undefined}>{state.logprobGap.toExponential(1)}</Text>
        </>
      )}
      {state.uniformGroups === undefined ? null : (
        <>
          <Text dimColor> · uniform groups </Text>
          <Text>{`${Math.round(state.uniformGroups * 100)}%`}</Text>
        </>
      )}
    </Text>
    </Box>
  );
}
