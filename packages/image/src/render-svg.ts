import sharp from 'sharp';
import { DEFAULT_MAX_PIXELS, type EncodedImage, type OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { InvalidImageError } from './invalid-image-error.js';
import type { OpenedImage } from './open-image.js';
import { checkColour } from './svg-markup.js';

/** The size renderSvg draws at, the colour under the drawing, and the output encoding. */
export interface RenderSvgOptions extends OutputOptions {
  /** Output width; default the SVG's own. With only one of width and height, the other keeps the aspect ratio. */
  width?: number;
  height?: number;
  /** CSS colour under the drawing, or 'transparent' to keep alpha; default '#ffffff' (models see no alpha). */
  background?: string;
}

/**
 * Renders SVG markup with sharp's librsvg, drawing at the target size (not scaling a bitmap).
 * Markup that points outside itself (http, file or relative URLs, CSS @import, XML entities)
 * is refused before librsvg sees it, so rendering never touches the network or the disk.
 */
export async function renderSvg(svg: string, options: RenderSvgOptions = {}): Promise<EncodedImage> {
  checkSvgReferences(svg);
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const bytes = Buffer.from(svg);
  const intrinsic = await sharp(bytes, { limitInputPixels: maxPixels })
    .metadata()
    .catch((error: unknown) => {
      throw new InvalidImageError({
        reason: 'corrupt',
        expected: 'SVG markup librsvg can parse',
        received: `${svg.length} characters that do not parse (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
        source: 'svg',
        cause: error,
      });
    });
  if (intrinsic.format !== 'svg') {
    throw new InvalidImageError({ reason: 'unsupported-format', expected: 'SVG markup', received: `${intrinsic.format} data`, source: 'svg' });
  }
  const { width, height } = targetSize(intrinsic.width, intrinsic.height, options);
  if (width * height > maxPixels) {
    throw new InvalidImageError({
      reason: 'too-large',
      expected: `at most ${maxPixels} pixels`,
      received: `a render of ${width} × ${height}`,
      source: 'svg',
      width,
      height,
      maxPixels,
    });
  }
  // librsvg draws at 72 dpi by default; raise the density so the vector is drawn at (or above) the
  // target size, then resize only the last fraction.
  const density = Math.min(100_000, 72 * Math.max(width / intrinsic.width, height / intrinsic.height));
  const pipeline = sharp(bytes, { density, limitInputPixels: maxPixels });
  pipeline.resize({ width, height, fit: 'fill' });
  const background = checkColour(options.background ?? '#ffffff', 'background');
  if (background !== 'transparent') pipeline.flatten({ background });
  const opened: OpenedImage = {
    pipeline,
    width,
    height,
    channels: 4,
    hasAlpha: true,
    mediaType: undefined,
    format: 'svg',
    bytes: undefined,
    source: 'svg',
    maxPixels,
  };
  return finishImage(opened, pipeline, options);
}

/**
 * Throws unless every URL in the markup is a fragment (#id) or an inline raster data URL. An
 * allowlist, so encodings the check does not understand are refused rather than let through.
 */
export function checkSvgReferences(svg: string): void {
  const refuse = (what: string): never => {
    throw new InvalidImageError({
      reason: 'external-reference',
      expected: 'self-contained SVG (only #fragment or data:image/png|jpeg|gif|webp URLs)',
      received: what.length > 80 ? `${what.slice(0, 80)}…` : what,
      source: 'svg',
    });
  };
  if (/<!ENTITY/i.test(svg)) refuse('an XML entity declaration');
  if (/<!DOCTYPE[^>]*\b(?:SYSTEM|PUBLIC)\b/i.test(svg)) refuse('an external DOCTYPE');
  if (/<\?xml-stylesheet/i.test(svg)) refuse('an xml-stylesheet instruction');
  if (/@import/i.test(svg)) refuse('a CSS @import');
  const attributes = /\b(?:xlink:href|href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  for (const match of svg.matchAll(attributes)) checkUrl(match[1] ?? match[2] ?? match[3] ?? '', refuse);
  // CSS url(...), in style attributes, <style> and presentation attributes such as fill.
  for (const match of svg.matchAll(/url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
    checkUrl(match[1] ?? match[2] ?? match[3] ?? '', refuse);
  }
  // A CSS escape can spell url( without the letters (u\72l), so escapes in markup are refused too.
  if (/\\[0-9a-f]/i.test(svg) && /<style|style\s*=/i.test(svg)) refuse('a CSS escape sequence');
}

function checkUrl(value: string, refuse: (what: string) => never): void {
  const url = value.trim();
  if (url.startsWith('#')) return;
  if (/^data:image\/(?:png|jpeg|jpg|gif|webp)[;,]/i.test(url)) return;
  refuse(`a reference to ${JSON.stringify(url)}`);
}

function targetSize(
  intrinsicWidth: number,
  intrinsicHeight: number,
  options: RenderSvgOptions,
): { width: number; height: number } {
  for (const [name, value] of [['width', options.width], ['height', options.height]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new InvalidImageArgumentError({ argument: name, expected: 'an integer ≥ 1', received: String(value), value });
    }
  }
  const { width, height } = options;
  if (width !== undefined && height !== undefined) return { width, height };
  if (width !== undefined) return { width, height: Math.max(1, Math.round((intrinsicHeight * width) / intrinsicWidth)) };
  if (height !== undefined) return { width: Math.max(1, Math.round((intrinsicWidth * height) / intrinsicHeight)), height };
  return { width: intrinsicWidth, height: intrinsicHeight };
}
