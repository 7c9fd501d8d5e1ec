import { describe, expect, test } from 'vitest';
import { parsePickle } from './read-pickle';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0));

describe('parsePickle', () => {
  test('plain data of protocol 0 and 2', () => {
    // pickle.dumps({'a': [1, 2.5, 'x', None, True]}, protocol=0) and protocol=2
    expect(parsePickle(bytes("(dp0\nVa\np1\n(lp2\nI1\naF2.5\naVx\np3\naNaI01\nas."))).toEqual({ a: [1, 2.5, 'x', null, true] });
    expect(parsePickle(bytes('\x80\x02}q\x00X\x01\x00\x00\x00aq\x01]q\x02(K\x01G@\x04\x00\x00\x00\x00\x00\x00X\x01\x00\x00\x00xq\x03N\x88es.'))).toEqual({ a: [1, 2.5, 'x', null, true] });
  });

  test('a global other than NumPy reconstruction is refused: a data file never runs code', () => {
    expect(() => parsePickle(bytes("cos\nsystem\n(S'echo hi'\ntR."))).toThrow('the pickle names os.system, which a data file should not');
  });

  test('a truncated pickle is an error, not a hang', () => {
    expect(() => parsePickle(bytes('\x80\x02}q\x00X\x01\x00'))).toThrow('the pickle ends in the middle of a value');
  });
});
