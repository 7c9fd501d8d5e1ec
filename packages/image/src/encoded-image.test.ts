import { describe, expect, expectTypeOf, it } from 'vitest';
import { isEncodedImage, isRawImage, type EncodedImage } from './encoded-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { InvalidImageError } from './invalid-image-error.js';

/** @saccade/spec's v1 ImageData, copied: the two must stay assignable both ways. */
interface SpecImageData {
  data: Uint8Array;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  width?: number;
  height?: number;
}

describe('types', () => {
  it('EncodedImage and spec ImageData are assignable both ways', () => {
    expectTypeOf<EncodedImage>().toExtend<SpecImageData>();
    expectTypeOf<SpecImageData>().toExtend<EncodedImage>();
  });

  it('tells encoded from raw images', () => {
    const encoded = { data: new Uint8Array(1), mediaType: 'image/png' };
    const raw = { data: new Uint8Array(3), width: 1, height: 1, channels: 3 };
    expect([isEncodedImage(encoded), isRawImage(encoded), isEncodedImage(raw), isRawImage(raw)]).toEqual([true, false, false, true]);
    expect(isEncodedImage({ data: new Uint8Array(1), mediaType: 'image/gif' })).toBe(false);
  });
});

describe('errors', () => {
  it('carry their own and spec markers, names and context', () => {
    const invalid = new InvalidImageError({ reason: 'empty', expected: 'image bytes', received: '0 bytes', source: 'bytes' });
    expect(invalid.name).toBe('Saccade_InvalidImageError');
    expect(invalid.message).toBe('Invalid image (from bytes): expected image bytes, received 0 bytes.');
    expect(Symbol.for('saccade.error') in invalid).toBe(true);
    expect(InvalidImageArgumentError.isInstance(invalid)).toBe(false);

    const argument = new InvalidImageArgumentError({ argument: 'angle', expected: 'a number', received: 'NaN', value: Number.NaN });
    expect(argument.name).toBe('Saccade_InvalidImageArgumentError');
    expect(argument).toMatchObject({ argument: 'angle', expected: 'a number', received: 'NaN', value: Number.NaN });
    expect(Symbol.for('saccade.error.invalid-argument') in argument).toBe(true);
    expect(InvalidImageArgumentError.isInstance(argument)).toBe(true);
    expect(InvalidImageError.isInstance(argument)).toBe(false);
  });
});
