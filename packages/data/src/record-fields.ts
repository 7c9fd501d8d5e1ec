import { DatasetFormatError, describeValue, type SourceLocation } from './dataset-format-error';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Typed reads of one source record's fields. Each read that finds the wrong thing throws a
 * `DatasetFormatError` naming the file, line or record, and the field by its path in the source
 * (`answers[2].answer`), so a user can find it.
 */
export class RecordFields {
  readonly value: Record<string, unknown>;

  constructor(
    value: unknown,
    readonly location: SourceLocation,
    private readonly prefix = '',
  ) {
    if (!isObject(value)) {
      throw new DatasetFormatError({ location, field: prefix === '' ? '(record)' : prefix, expected: 'a JSON object', received: describeValue(value) });
    }
    this.value = value;
  }

  /** The field's path for messages. */
  path(name: string | number): string {
    if (typeof name === 'number') return `${this.prefix}[${name}]`;
    return this.prefix === '' ? name : `${this.prefix}.${name}`;
  }

  fail(name: string | number, expected: string, received: unknown = this.get(name)): never {
    throw new DatasetFormatError({ location: this.location, field: this.path(name), expected, received: describeValue(received) });
  }

  get(name: string | number): unknown {
    return this.value[name];
  }

  has(name: string): boolean {
    return this.value[name] !== undefined && this.value[name] !== null;
  }

  /** A string (a number is read as its text when `numbers` is on). */
  string(name: string, what: string, { allowEmpty = false, numbers = false }: { allowEmpty?: boolean; numbers?: boolean } = {}): string {
    const value = this.get(name);
    if (numbers && typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value !== 'string' || (!allowEmpty && value.trim().length === 0)) this.fail(name, `${allowEmpty ? 'a string' : 'a non-empty string'} (${what})`);
    return value;
  }

  optionalString(name: string, what: string): string | undefined {
    return this.has(name) ? this.string(name, what, { allowEmpty: true }) : undefined;
  }

  /** A string or a number, as written. */
  scalar(name: string, what: string): string | number {
    const value = this.get(name);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim().length > 0) return value;
    return this.fail(name, `a string or a number (${what})`);
  }

  integer(name: string, what: string, { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY }: { min?: number; max?: number } = {}): number {
    let value = this.get(name);
    if (typeof value === 'bigint') value = Number(value);
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) value = Number(value);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      const range = Number.isFinite(min) && Number.isFinite(max) ? ` from ${min} to ${max}` : Number.isFinite(min) ? ` ≥ ${min}` : '';
      this.fail(name, `an integer${range} (${what})`);
    }
    return value;
  }

  array(name: string, what: string, { min = 0 }: { min?: number } = {}): unknown[] {
    const value = this.get(name);
    if (!Array.isArray(value) || value.length < min) this.fail(name, `an array${min > 0 ? ` of at least ${min}` : ''} (${what})`);
    return value;
  }

  /** An array of strings (numbers read as text), each checked. */
  stringArray(name: string, what: string, { min = 0 }: { min?: number } = {}): string[] {
    return this.array(name, what, { min }).map((item, index) => {
      if (typeof item === 'number' && Number.isFinite(item)) return String(item);
      if (typeof item !== 'string') throw new DatasetFormatError({ location: this.location, field: `${this.path(name)}[${index}]`, expected: `a string (${what})`, received: describeValue(item) });
      return item;
    });
  }

  /** A nested object, read with the same checks. */
  object(name: string, what: string): RecordFields {
    const value = this.get(name);
    if (!isObject(value)) this.fail(name, `an object (${what})`);
    return new RecordFields(value, this.location, this.path(name));
  }

  /** The items of an array of objects, each as fields. */
  objects(name: string, what: string, { min = 0 }: { min?: number } = {}): RecordFields[] {
    return this.array(name, what, { min }).map((item, index) => {
      if (!isObject(item)) throw new DatasetFormatError({ location: this.location, field: `${this.path(name)}[${index}]`, expected: `an object (${what})`, received: describeValue(item) });
      return new RecordFields(item, this.location, `${this.path(name)}[${index}]`);
    });
  }

  /** The named fields that are present (not null), for a task's metadata. */
  pick(...names: string[]): Record<string, unknown> {
    const picked: Record<string, unknown> = {};
    for (const name of names) if (this.has(name)) picked[name] = this.value[name];
    return picked;
  }
}
