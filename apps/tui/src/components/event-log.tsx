import { Box, Text } from 'ink';
import type { LogLine } from '../run-state';

export interface EventLogProps {
  log: readonly LogLine[];
  width: number;
  /** Rows in all, the title included. */
  height: number;
}

const LEVEL_COLOURS = { debug: 'gray', info: undefined, warn: 'yellow', error: 'red' } as const;

/** The newest events and warnings, one line each. */
export function EventLog({ log, width, height }: EventLogProps) {
  const shown = log.slice(-Math.max(0, height - 1));
  const warnings = log.filter((line) => line.level === 'warn' || line.level === 'error').length;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold underline>events</Text>
        {warnings > 0 ? <Text color="yellow">{` ${warnings} warning${warnings === 1 ? '' : 's'}`}</Text> : null}
      </Text>
      {shown.map((line, index) => (
        <Text key={index} wrap="truncate" color={LEVEL_COLOURS[line.level]}>
          <Text dimColor>{clock(line.time)} </Text>
          {line.level === 'warn' || line.level === 'error' ? `${line.level}: ` : ''}
          {line.message}
        </Text>
      ))}
    </Box>
  );
}

/** `hh:mm:ss` of an ISO time, in UTC so that recorded runs read the same everywhere. */
function clock(time: string): string {
  const match = /T(\d\d:\d\d:\d\d)/.exec(time);
  return match ? match[1]! : '--:--:--';
}
