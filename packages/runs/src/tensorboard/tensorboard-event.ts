import protobuf from 'protobufjs/light.js';

/**
 * The parts of TensorBoard's `event.proto` and `summary.proto` (package `tensorboard`, the
 * `tensorflow` protos' field numbers) that scalar event files use. Fields not listed here are
 * never written.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    tensorboard: {
      nested: {
        Event: {
          oneofs: { what: { oneof: ['fileVersion', 'summary'] } },
          fields: {
            wallTime: { type: 'double', id: 1 },
            step: { type: 'int64', id: 2 },
            fileVersion: { type: 'string', id: 3 },
            summary: { type: 'Summary', id: 5 },
          },
        },
        Summary: {
          fields: { value: { rule: 'repeated', type: 'Value', id: 1 } },
          nested: {
            Value: {
              oneofs: { value: { oneof: ['simpleValue'] } },
              fields: {
                tag: { type: 'string', id: 1 },
                simpleValue: { type: 'float', id: 2 },
              },
            },
          },
        },
      },
    },
  },
});
const EventMessage = root.lookupType('tensorboard.Event');

/** The version string of the first event of every file: TensorBoard reads files that start with it. */
export const TENSORBOARD_FILE_VERSION = 'brain.Event:2';

/** The first event of an event file: its wall time and `file_version`. */
export function encodeFileVersionEvent(wallTime: number): Uint8Array {
  return EventMessage.encode(EventMessage.create({ wallTime, step: 0, fileVersion: TENSORBOARD_FILE_VERSION })).finish();
}

/** An event holding one summary of scalars (`simple_value`, float32) at `step`. */
export function encodeScalarsEvent(wallTime: number, step: number, scalars: Readonly<Record<string, number>>): Uint8Array {
  const value = Object.entries(scalars).map(([tag, simpleValue]) => ({ tag, simpleValue }));
  return EventMessage.encode(EventMessage.create({ wallTime, step, summary: { value } })).finish();
}
