// Test helpers: a reader of TensorBoard event files written from the published formats alone
// (TFRecord framing with masked CRC-32C, the protobuf wire format, event.proto's field numbers),
// sharing no code with the writer, for tests that check what a run wrote.
export { decodeEvent, readEventFile, readRecords } from './__fixtures__/read-event-file';
export type { DecodedEvent } from './__fixtures__/read-event-file';
