import { Box, Text } from 'ink';
import { formatNumber } from '../format';
import { EVAL_MARKER, renderLineChart, SAMPLED_MARKER, type ChartSegmentKind } from '../line-chart';
import { CHART_NAMES, type ChartName, type RunState } from '../run-state';

export interface ChartPanelProps {
  state: RunState;
  chart: ChartName;
  width: number;
  /** Rows in all: tabs, chart with its step axis, legend. */
  height: number;
}

const SEGMENT_COLOURS: Record<ChartSegmentKind, string | undefined> = {
  axis: 'gray',
  train: 'cyan',
  eval: 'magenta',
  marker: 'magenta',
  sampled: 'yellow',
  blank: undefined,
};

/** Tabs of the charts, the selected chart over steps, and its latest values. */
export function ChartPanel({ state, chart, width, height }: ChartPanelProps) {
  const series = state.series[chart];
  const lines = renderLineChart(series, { width, height: Math.max(2, height - 2) });
  const lastTrain = series.train.at(-1);
  const lastEval = series.eval.at(-1);
  const lastSampled = series.sampled?.at(-1);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        {CHART_NAMES.map((name, index) => (
          <Text key={name}>
            {index > 0 ? ' ' : ''}
            {name === chart ? (
              <Text inverse bold>{` ${name} `}</Text>
            ) : (
              <Text dimColor>{` ${name} `}</Text>
            )}
          </Text>
        ))}
      </Text>
      {lines.map((line, row) => (
        <Text key={row} wrap="truncate">
          {line.map((segment, index) => (
            <Text key={index} color={SEGMENT_COLOURS[segment.kind]} bold={segment.kind === 'marker'}>
              {segment.text}
            </Text>
          ))}
        </Text>
      ))}
      <Text wrap="truncate">
        <Text color="cyan">⠤⠤ train</Text>
        <Text> </Text>
        <Text color="magenta">{EVAL_MARKER} eval</Text>
        <Text dimColor>{'  latest '}</Text>
        <Text>{lastTrain ? `${formatNumber(lastTrain.value)} @ ${lastTrain.step}` : '–'}</Text>
        <Text dimColor>{' · eval '}</Text>
        <Text>{lastEval ? `${formatNumber(lastEval.value)} @ ${lastEval.step}` : '–'}</Text>
        {lastSampled ? (
          <>
            <Text dimColor>{' · '}</Text>
            <Text color="yellow">{`${SAMPLED_MARKER} sampled `}</Text>
            <Text>{`${formatNumber(lastSampled.value)} @ ${lastSampled.step}`}</Text>
          </>
        ) : null}
      </Text>
    </Box>
  );
}
