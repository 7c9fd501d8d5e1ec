import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode-image.js';
import { encodePng } from './encode-image.js';
import { toDataUrl } from './data-url.js';
import { InvalidImageError } from './invalid-image-error.js';
import { makeSolidImage, pixelAt } from './make-test-image.js';
import { checkSvgReferences, renderSvg } from './render-svg.js';

const svgOf = (body: string, size = 'viewBox="0 0 40 20"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${size}>${body}</svg>`;

const halfBlue = svgOf('<rect x="0" y="0" width="20" height="20" fill="#0000ff"/>');

describe('renderSvg', () => {
  it('draws at its own size on white by default', async () => {
    const rendered = await renderSvg(halfBlue);
    expect(rendered).toMatchObject({ mediaType: 'image/png', width: 40, height: 20 });
    const raw = await decodeImage(rendered);
    expect(raw.channels).toBe(3);
    expect(pixelAt(raw, 5, 5)).toEqual([0, 0, 255]);
    expect(pixelAt(raw, 30, 5)).toEqual([255, 255, 255]);
  });

  it('draws at a requested size, keeping the aspect ratio when given one side', async () => {
    const wide = await decodeImage(await renderSvg(halfBlue, { width: 400 }));
    expect([wide.width, wide.height]).toEqual([400, 200]);
    expect(pixelAt(wide, 199, 100)).toEqual([0, 0, 255]);
    expect(pixelAt(wide, 200, 100)).toEqual([255, 255, 255]);
    const exact = await renderSvg(halfBlue, { width: 100, height: 100 });
    expect([exact.width, exact.height]).toEqual([100, 100]);
  });

  it('takes a background, or keeps alpha with transparent', async () => {
    const grey = await decodeImage(await renderSvg(halfBlue, { background: '#808080' }));
    expect(pixelAt(grey, 30, 5)).toEqual([128, 128, 128]);
    const clear = await decodeImage(await renderSvg(halfBlue, { background: 'transparent' }));
    expect(clear.channels).toBe(4);
    expect(pixelAt(clear, 30, 5)[3]).toBe(0);
  });

  it('renders text with the system fonts', async () => {
    const raw = await decodeImage(await renderSvg(svgOf('<text x="2" y="16" font-size="16" fill="#000">Hi</text>'), { width: 80 }));
    const dark = [...Array(raw.width * raw.height).keys()].filter((index) => (raw.data[index * 3] ?? 255) < 100);
    expect(dark.length).toBeGreaterThan(30);
  });

  it('allows inline data URLs and #fragments', async () => {
    const red = toDataUrl(await encodePng(makeSolidImage(4, 4, [255, 0, 0])));
    const svg = svgOf(
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#0f0"/></linearGradient></defs><image href="${red}" width="20" height="20"/><rect x="20" width="20" height="20" fill="url(#g)"/>`,
    );
    const raw = await decodeImage(await renderSvg(svg));
    expect(pixelAt(raw, 5, 5)).toEqual([255, 0, 0]);
    expect(pixelAt(raw, 30, 5)).toEqual([0, 255, 0]);
  });

  it('refuses external references of every kind before rendering, so nothing is fetched', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.png`;
    try {
      const unsafe = [
        svgOf(`<image href="${url}" width="10" height="10"/>`),
        svgOf(`<image xlink:href='${url}' width="10" height="10"/>`),
        svgOf('<image href="file:///etc/passwd" width="10" height="10"/>'),
        svgOf('<image href="secret.png" width="10" height="10"/>'),
        svgOf(`<rect width="10" height="10" style="fill: url(${url})"/>`),
        svgOf(`<style>@import "${url}";</style>`),
        svgOf('<use href="other.svg#shape"/>'),
        `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svgOf('<text>&x;</text>')}`,
        svgOf('<rect width="10" height="10" style="fill: u\\72l(http://x)"/>'),
      ];
      for (const svg of unsafe) {
        const error = await renderSvg(svg).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(InvalidImageError.isInstance(error), svg).toBe(true);
        expect((error as InvalidImageError).reason).toBe('external-reference');
      }
      expect(() => checkSvgReferences(svgOf(`<image href="${url}"/>`))).toThrow(
        /expected self-contained SVG .*, received a reference to "http:\/\/127\.0\.0\.1/,
      );
    } finally {
      server.close();
    }
    expect(requests).toBe(0);
  });

  it('explains markup that does not parse and sizes over the limit', async () => {
    await expect(renderSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect')).rejects.toThrow(/expected SVG markup librsvg can parse/);
    await expect(renderSvg(halfBlue, { width: 10_000, height: 10_000 })).rejects.toThrow(/at most 67108864 pixels, received a render of 10000 × 10000/);
  });
});
