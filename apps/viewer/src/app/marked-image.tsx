import { useEffect, useRef, useState } from 'react';
import { number } from './format';
import type { Mark } from './marks';
import { maskColour, maskLayer, type MaskOverlay } from './masks';

const colours = ['#e4572e', '#17bebb', '#ffc914', '#76b041', '#a259ff', '#2e86ab'];

/**
 * An image at its own resolution (scaled down only to fit), with marks drawn in its pixel
 * coordinates: an SVG over it whose viewBox is the image's natural size, so a box stays on the
 * pixels it names at any displayed size. Masks are canvases of the image's own size stretched over
 * it the same way, under the marks, with a toggle and a caption per mask.
 */
export function MarkedImage({ src, marks, masks = [], width, height, caption }: { src: string; marks: Mark[]; masks?: MaskOverlay[]; width?: number; height?: number; caption?: string }) {
  const [size, setSize] = useState<{ width: number; height: number } | undefined>(width !== undefined && height !== undefined ? { width, height } : undefined);
  const [showMasks, setShowMasks] = useState(true);
  const fits = (mask: MaskOverlay): boolean => size !== undefined && mask.width === size.width && mask.height === size.height;
  return (
    <figure className="marked-image">
      <div className="image-box" style={size ? { maxWidth: size.width } : undefined}>
        <img src={src} alt={caption ?? 'observation'} onLoad={(event) => setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })} />
        {/* Last first, so the best mask of a call (its first) lies on top of the larger candidates. */}
        {showMasks &&
          masks
            .filter(fits)
            .reverse()
            .map((mask) => <MaskCanvas key={`${mask.call}-${mask.index}`} mask={mask} />)}
        {size !== undefined && marks.length > 0 && (
          <svg className="marks" viewBox={`0 0 ${size.width} ${size.height}`} preserveAspectRatio="none">
            {marks.map((mark, index) => {
              const colour = colours[mark.call % colours.length];
              const stroke = Math.max(2, size.width / 300);
              return mark.kind === 'box' ? (
                <g key={index} data-testid="mark-box" data-box={`${mark.x1},${mark.y1},${mark.x2},${mark.y2}`}>
                  <rect x={mark.x1} y={mark.y1} width={mark.x2 - mark.x1} height={mark.y2 - mark.y1} fill="none" stroke={colour} strokeWidth={stroke} vectorEffect="non-scaling-stroke" />
                  <text x={mark.x1 + 3} y={Math.max(mark.y1 - 4, 12)} fill={colour} fontSize={Math.max(12, size.width / 50)}>
                    {mark.label}
                  </text>
                </g>
              ) : (
                <g key={index} data-testid="mark-point" data-point={`${mark.x},${mark.y}`}>
                  <circle cx={mark.x} cy={mark.y} r={Math.max(4, size.width / 120)} fill={colour} stroke="#fff" strokeWidth={1} vectorEffect="non-scaling-stroke" />
                  <text x={mark.x + 8} y={mark.y - 8} fill={colour} fontSize={Math.max(12, size.width / 50)}>
                    {mark.label}
                  </text>
                </g>
              );
            })}
          </svg>
        )}
      </div>
      {caption !== undefined && (
        <figcaption>
          {caption}
          {size !== undefined && ` · ${size.width}×${size.height}`}
        </figcaption>
      )}
      {masks.length > 0 && (
        <div className="mask-captions" data-testid="mask-captions">
          <label>
            <input type="checkbox" checked={showMasks} onChange={(event) => setShowMasks(event.currentTarget.checked)} /> masks
          </label>
          <ul>
            {masks.map((mask) => (
              <li key={`${mask.call}-${mask.index}`} data-testid="mask-caption">
                <span className="swatch" style={{ background: `rgb(${maskColour(mask).join(', ')})` }} />
                {`call ${mask.call + 1}, mask ${mask.index + 1}: ${mask.score !== undefined ? `score ${number(mask.score)} · ` : ''}area ${mask.area} px (${(mask.coverage * 100).toFixed(1)}%)`}
                {size !== undefined && !fits(mask) && ` · not drawn: the mask is ${mask.width}×${mask.height}, the image ${size.width}×${size.height}`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </figure>
  );
}

/** One mask as a canvas of its own pixels, stretched over the image (pixelated, so each mask pixel stays on its image pixel). */
function MaskCanvas({ mask }: { mask: MaskOverlay }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (context === null || context === undefined || mask.width === 0 || mask.height === 0) return;
    context.putImageData(new ImageData(maskLayer(mask, maskColour(mask)), mask.width, mask.height), 0, 0);
  }, [mask]);
  return <canvas ref={canvas} className="mask" width={mask.width} height={mask.height} data-testid="mask-layer" data-call={mask.call} data-mask={mask.index} data-area={mask.area} />;
}
