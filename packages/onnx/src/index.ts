export { openSession } from './open-session';
export { bytesField, bytesOf, concatBytes, floatField, readMessage, stringField, textOf, varintField } from './protobuf-wire';
export type { WireField } from './protobuf-wire';
