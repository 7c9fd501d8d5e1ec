import { ConformanceError, detectImageMediaType, type Env } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { GuessNumberEnv, RED_PIXEL_PNG } from '../testing';
import { OrderEnforcing } from '../wrappers/order-enforcing';
import { TimeLimit } from '../wrappers/time-limit';
import { assertEnv, checkEnv } from './check-env';
import { countImagePlaceholders } from './count-image-placeholders';
import { describeInvalidImage, isImageData } from './detect-image-media-type';

const actions = ['<answer>10</answer>', '<answer>5</answer>', '<answer>15</answer>'];

describe('checkEnv', () => {
  test('the reference env passes, as a factory and as an instance', async () => {
    expect(await checkEnv(() => new GuessNumberEnv(), { seed: 3, actions })).toEqual({
      ok: true,
      envId: 'test/GuessNumber-v1',
      failures: [],
    });
    expect((await checkEnv(new GuessNumberEnv(), { actions })).ok).toBe(true);
    await expect(assertEnv(() => new TimeLimit(new OrderEnforcing(new GuessNumberEnv()), { maxTurns: 2 }), { actions })).resolves.toBeUndefined();
  });

  test('a non-deterministic env fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ nondeterministic: true }), { actions });
    expect(report.ok).toBe(false);
    expect(report.failures[0]).toMatch(
      /^determinism \(two resets of one env, seed 0\): expected the same observation text after reset, but it differs at character \d+: "\d+\) <image>" vs "\d+\) <image>"$/,
    );
  });

  test('a placeholder mismatch fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ placeholderMismatch: true }));
    expect(report.failures).toContain(
      'reset({seed: 0}): expected one <image> placeholder per image, found 2 placeholder(s) for 1 image(s)',
    );
  });

  test('an env that throws on a bad action fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ throwOnBadAction: true }));
    expect(report.failures[0]).toBe('step("") (a malformed action, after reset) threw Error: cannot parse ');
    expect(report.failures.some((failure) => failure.includes('(100000 chars)') || failure.includes('xxxx…'))).toBe(true);
  });

  test('close that is not idempotent fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ closeTwiceThrows: true }));
    expect(report.failures).toContain('close() a second time (close must be idempotent) threw Error: already closed');
  });

  test('a reward that is not the sum of its terms fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ rewardMismatch: true }), { actions });
    expect(report.failures[0]).toMatch(/expected reward to equal the sum of info.rewardTerms \(0.5\), received 1.5/);
  });

  test('a media type that does not match the bytes fails', async () => {
    const report = await checkEnv(() => new GuessNumberEnv({ badImage: true }));
    expect(report.failures[0]).toBe('reset({seed: 0}): observation.images[0]: image.mediaType says image/jpeg but the bytes are image/png');
  });

  test('wrong shapes and hangs are reported, not thrown', async () => {
    const broken = {
      specificationVersion: 'v1',
      id: 'test/Broken-v1',
      systemPrompt: () => '',
      reset: async () => ({ observation: { text: 'hi' }, info: {} }),
      step: async () => ({}),
      close: () => new Promise<void>(() => {}),
    } as unknown as Env;
    const report = await checkEnv(broken, { timeoutMs: 50 });
    expect(report.failures).toEqual([
      'systemPrompt(): expected a non-empty string, received ""',
      'reset({seed: 0}): expected observation.images to be an array, received undefined',
      'close() threw Error: did not settle within 50 ms',
    ]);
    const notAnEnv = await checkEnv(() => ({ id: 3 }) as unknown as Env);
    expect(notAnEnv.failures).toContain("expected specificationVersion 'v1', received undefined");
    expect(notAnEnv.failures).toContain('expected a reset() method, received undefined');
  });

  test('assertEnv throws a ConformanceError listing every failure', async () => {
    const error = await assertEnv(() => new GuessNumberEnv({ placeholderMismatch: true, closeTwiceThrows: true })).catch((e: unknown) => e);
    expect(ConformanceError.isInstance(error)).toBe(true);
    const conformance = error as ConformanceError;
    expect(conformance.message).toMatch(/^Env "test\/GuessNumber-v1" failed \d+ conformance checks:\n {2}- reset/);
    expect(conformance.failures.length).toBeGreaterThanOrEqual(2);
  });
});

describe('image helpers', () => {
  test('magic bytes', () => {
    expect(detectImageMediaType(RED_PIXEL_PNG.data)).toBe('image/png');
    expect(detectImageMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectImageMediaType(new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(detectImageMediaType(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });

  test('describeInvalidImage says what is wrong', () => {
    expect(isImageData(RED_PIXEL_PNG)).toBe(true);
    expect(describeInvalidImage({ ...RED_PIXEL_PNG, data: [1, 2] })).toBe('expected image.data to be a Uint8Array of encoded bytes');
    expect(describeInvalidImage({ ...RED_PIXEL_PNG, mediaType: 'image/gif' })).toBe(
      'expected image.mediaType to be one of image/png, image/jpeg, image/webp, received "image/gif"',
    );
    expect(describeInvalidImage({ ...RED_PIXEL_PNG, data: new Uint8Array(4) })).toBe(
      'expected the bytes of a image/png image, but the first bytes (00 00 00 00) are not PNG, JPEG or WebP',
    );
    expect(describeInvalidImage({ ...RED_PIXEL_PNG, width: 0 })).toBe('expected image.width to be a positive integer, received 0');
  });

  test('countImagePlaceholders', () => {
    expect(countImagePlaceholders('a <image> b <image><image>')).toBe(3);
    expect(countImagePlaceholders('<imag> <IMAGE>')).toBe(0);
  });
});
