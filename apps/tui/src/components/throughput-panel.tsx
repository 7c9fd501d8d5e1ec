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
    </Text>
    </Box>
  );
}
