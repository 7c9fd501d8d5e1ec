import { readFile } from 'node:fs/promises';
import { DatasetFormatError } from '../dataset-format-error';

/** A NumPy array read from a pickle: its shape, its dtype (`u1`, `<i8`, `<f4`, …) and its raw bytes (C order). */
export interface PickledArray {
  kind: 'ndarray';
  shape: number[];
  dtype: string;
  data: Uint8Array;
}

interface PickledGlobal {
  kind: 'global';
  name: string;
}

interface PickledDtype {
  kind: 'dtype';
  code: string;
  byteOrder: string;
}

/** The globals a data pickle may name; anything else is refused (a pickle can run code in Python, never here). */
const ALLOWED = new Set([
  'numpy.core.multiarray._reconstruct',
  'numpy._core.multiarray._reconstruct',
  'numpy.core.multiarray.scalar',
  'numpy._core.multiarray.scalar',
  'numpy.ndarray',
  'numpy.dtype',
  '_codecs.encode',
  'builtins.bytearray',
  '__builtin__.bytearray',
  'collections.OrderedDict',
]);

const isGlobal = (value: unknown, suffix: string): value is PickledGlobal => (value as PickledGlobal | undefined)?.kind === 'global' && (value as PickledGlobal).name.endsWith(suffix);

/** A NumPy scalar's value from its dtype and bytes (`numpy.core.multiarray.scalar(dtype, bytes)`). */
function scalarValue(dtype: PickledDtype, bytes: Uint8Array): number | boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = dtype.byteOrder !== '>';
  const code = dtype.code.replace(/^[<>|=]/, '');
  switch (code) {
    case 'b1': return bytes[0] !== 0;
    case 'i1': return view.getInt8(0);
    case 'u1': return view.getUint8(0);
    case 'i2': return view.getInt16(0, little);
    case 'u2': return view.getUint16(0, little);
    case 'i4': return view.getInt32(0, little);
    case 'u4': return view.getUint32(0, little);
    case 'i8': return Number(view.getBigInt64(0, little));
    case 'u8': return Number(view.getBigUint64(0, little));
    case 'f4': return view.getFloat32(0, little);
    case 'f8': return view.getFloat64(0, little);
    default: throw new Error(`NumPy scalar of dtype ${dtype.code} is not supported`);
  }
}

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0) & 0xff);

/**
 * Reads a Python pickle of plain data (dicts, lists, tuples, strings, numbers, bytes) and NumPy
 * arrays and scalars, as research datasets ship them (UniGeo's `*.pk`), without Python. Only the
 * NumPy reconstruction globals are accepted; any other global is an error.
 */
export function parsePickle(bytes: Uint8Array): unknown {
  try {
    return runPickle(bytes);
  } catch (error) {
    // DataView reads past the end throw RangeError: a truncated file.
    if (error instanceof RangeError) throw new Error('the pickle ends in the middle of a value');
    throw error;
  }
}

function runPickle(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder('utf-8');
  let position = 0;
  let stack: unknown[] = [];
  const marks: unknown[][] = [];
  const memo = new Map<number, unknown>();
  const take = (count: number): Uint8Array => {
    if (position + count > bytes.length) throw new Error('the pickle ends in the middle of a value');
    const slice = bytes.subarray(position, position + count);
    position += count;
    return slice;
  };
  const line = (): string => {
    const end = bytes.indexOf(10, position);
    if (end < 0) throw new Error('the pickle ends in the middle of a line');
    const value = new TextDecoder('latin1').decode(bytes.subarray(position, end));
    position = end + 1;
    return value;
  };
  const popMark = (): unknown[] => {
    const items = stack;
    stack = marks.pop() ?? [];
    return items;
  };
  const pop = (): unknown => {
    if (stack.length === 0) throw new Error('the pickle pops an empty stack');
    return stack.pop();
  };
  const top = (): unknown => stack[stack.length - 1];
  const reduce = (callable: unknown, args: unknown[]): unknown => {
    if (isGlobal(callable, '._reconstruct')) return { kind: 'ndarray', shape: [], dtype: '', data: new Uint8Array() } satisfies PickledArray;
    if (isGlobal(callable, '.dtype')) return { kind: 'dtype', code: String(args[0]), byteOrder: '|' } satisfies PickledDtype;
    if (isGlobal(callable, '.scalar')) return scalarValue(args[0] as PickledDtype, args[1] instanceof Uint8Array ? args[1] : latin1(String(args[1])));
    if (isGlobal(callable, '_codecs.encode')) return latin1(String(args[0]));
    if (isGlobal(callable, '.bytearray')) return args[0] instanceof Uint8Array ? args[0] : typeof args[0] === 'string' ? latin1(args[0]) : new Uint8Array();
    if (isGlobal(callable, 'OrderedDict')) return {};
    throw new Error(`cannot call ${(callable as PickledGlobal | undefined)?.name ?? JSON.stringify(callable)} with ${JSON.stringify(args)}`);
  };
  const build = (target: unknown, state: unknown): void => {
    const object = target as { kind?: string };
    if (object?.kind === 'ndarray') {
      const [, shape, dtype, , data] = state as [number, number[], PickledDtype, boolean, unknown];
      const array = object as PickledArray;
      array.shape = [...shape];
      array.dtype = `${dtype.byteOrder === '|' ? '' : dtype.byteOrder}${dtype.code}`;
      array.data = data instanceof Uint8Array ? data : typeof data === 'string' ? latin1(data) : new Uint8Array();
    } else if (object?.kind === 'dtype') {
      (object as PickledDtype).byteOrder = String((state as unknown[])[1] ?? '|');
    } else if (typeof target === 'object' && target !== null && typeof state === 'object' && state !== null) Object.assign(target, state);
  };

  while (position < bytes.length) {
    const opcode = bytes[position++]!;
    switch (opcode) {
      case 0x80: position += 1; break; // PROTO
      case 0x95: position += 8; break; // FRAME
      case 0x2e: return pop(); // STOP
      case 0x28: marks.push(stack); stack = []; break; // MARK
      case 0x7d: stack.push({}); break; // EMPTY_DICT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push([]); break; // EMPTY_TUPLE
      case 0x74: { const items = popMark(); stack.push(items); break; } // TUPLE
      case 0x6c: { const items = popMark(); stack.push(items); break; } // LIST
      case 0x64: { const items = popMark(); const dict: Record<string, unknown> = {}; for (let i = 0; i < items.length; i += 2) dict[String(items[i])] = items[i + 1]; stack.push(dict); break; } // DICT
      case 0x85: stack.push([pop()]); break; // TUPLE1
      case 0x86: { const b = pop(); stack.push([pop(), b]); break; } // TUPLE2
      case 0x87: { const c = pop(); const b = pop(); stack.push([pop(), b, c]); break; } // TUPLE3
      case 0x61: { const value = pop(); (top() as unknown[]).push(value); break; } // APPEND
      case 0x65: { const items = popMark(); (top() as unknown[]).push(...items); break; } // APPENDS
      case 0x73: { const value = pop(); const key = pop(); (top() as Record<string, unknown>)[String(key)] = value; break; } // SETITEM
      case 0x75: { const items = popMark(); const dict = top() as Record<string, unknown>; for (let i = 0; i < items.length; i += 2) dict[String(items[i])] = items[i + 1]; break; } // SETITEMS
      case 0x4a: stack.push(view.getInt32((position += 4) - 4, true)); break; // BININT
      case 0x4b: stack.push(take(1)[0]); break; // BININT1
      case 0x4d: stack.push(view.getUint16((position += 2) - 2, true)); break; // BININT2
      case 0x8a: case 0x8b: { // LONG1, LONG4
        const count = opcode === 0x8a ? take(1)[0]! : view.getUint32((position += 4) - 4, true);
        let value = 0n;
        const digits = take(count);
        for (let i = digits.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(digits[i]!);
        if (count > 0 && digits[count - 1]! & 0x80) value -= 1n << BigInt(count * 8);
        stack.push(Number(value));
        break;
      }
      case 0x49: { const value = line(); stack.push(value === '01' ? true : value === '00' ? false : Number(value)); break; } // INT
      case 0x4c: stack.push(Number(line().replace(/L$/, ''))); break; // LONG
      case 0x46: stack.push(Number(line())); break; // FLOAT
      case 0x47: stack.push(view.getFloat64((position += 8) - 8, false)); break; // BINFLOAT
      case 0x58: stack.push(text.decode(take(view.getUint32((position += 4) - 4, true)))); break; // BINUNICODE
      case 0x8c: stack.push(text.decode(take(take(1)[0]!))); break; // SHORT_BINUNICODE
      case 0x8d: stack.push(text.decode(take(Number(view.getBigUint64((position += 8) - 8, true))))); break; // BINUNICODE8
      case 0x56: stack.push(line()); break; // UNICODE (raw-unicode-escape, plain text in practice)
      case 0x54: stack.push(new TextDecoder('latin1').decode(take(view.getUint32((position += 4) - 4, true)))); break; // BINSTRING
      case 0x55: stack.push(new TextDecoder('latin1').decode(take(take(1)[0]!))); break; // SHORT_BINSTRING
      case 0x42: stack.push(take(view.getUint32((position += 4) - 4, true)).slice()); break; // BINBYTES
      case 0x43: stack.push(take(take(1)[0]!).slice()); break; // SHORT_BINBYTES
      case 0x8e: case 0x96: stack.push(take(Number(view.getBigUint64((position += 8) - 8, true))).slice()); break; // BINBYTES8, BYTEARRAY8
      case 0x4e: stack.push(null); break; // NONE
      case 0x88: stack.push(true); break; // NEWTRUE
      case 0x89: stack.push(false); break; // NEWFALSE
      case 0x63: { const module = line(); const name = line(); stack.push(globalNamed(`${module}.${name}`)); break; } // GLOBAL
      case 0x93: { const name = String(pop()); stack.push(globalNamed(`${String(pop())}.${name}`)); break; } // STACK_GLOBAL
      case 0x52: { const args = pop() as unknown[]; stack.push(reduce(pop(), args)); break; } // REDUCE
      case 0x81: { const args = pop() as unknown[]; stack.push(reduce(pop(), args)); break; } // NEWOBJ
      case 0x62: { const state = pop(); build(top(), state); break; } // BUILD
      case 0x94: memo.set(memo.size, top()); break; // MEMOIZE
      case 0x71: memo.set(take(1)[0]!, top()); break; // BINPUT
      case 0x72: memo.set(view.getUint32((position += 4) - 4, true), top()); break; // LONG_BINPUT
      case 0x70: memo.set(Number(line()), top()); break; // PUT
      case 0x68: stack.push(memo.get(take(1)[0]!)); break; // BINGET
      case 0x6a: stack.push(memo.get(view.getUint32((position += 4) - 4, true))); break; // LONG_BINGET
      case 0x67: stack.push(memo.get(Number(line()))); break; // GET
      case 0x30: pop(); break; // POP
      case 0x31: popMark(); break; // POP_MARK
      case 0x32: stack.push(top()); break; // DUP
      case 0x8f: stack.push([]); break; // EMPTY_SET (as an array)
      case 0x90: { const items = popMark(); (top() as unknown[]).push(...items); break; } // ADDITEMS
      case 0x91: { const items = popMark(); stack.push(items); break; } // FROZENSET
      default:
        throw new Error(`unsupported pickle opcode 0x${opcode.toString(16)} at byte ${position - 1}`);
    }
  }
  throw new Error('the pickle has no STOP opcode');
}

function globalNamed(name: string): PickledGlobal {
  if (!ALLOWED.has(name)) throw new Error(`the pickle names ${name}, which a data file should not (only NumPy arrays and plain data are read)`);
  return { kind: 'global', name };
}

/** Reads a pickle file; a file that is not a readable data pickle throws a `DatasetFormatError` naming it. */
export async function readPickle(file: string): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a readable pickle file', received: (error as Error).message, cause: error });
  }
  try {
    return parsePickle(bytes);
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a Python pickle of plain data and NumPy arrays', received: (error as Error).message, cause: error });
  }
}
