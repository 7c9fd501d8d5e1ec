import { useState } from 'react';
import type { Mark } from './marks';

const colours = ['#e4572e', '#17bebb', '#ffc914', '#76b041', '#a259ff', '#2e86ab'];

/**
 * An image at its own resolution (scaled down only to fit), with marks drawn in its pixel
 * coordinates: an SVG over it whose viewBox is the image's natural size, so a box stays on the
 * pixels it names at any displayed size.
 */
export function MarkedImage({ src, marks, width, height, caption }: { src: string; marks: Mark[]; width?: number; height?: number; caption?: string }) {
  const [size, setSize] = useState<{ width: number; height: number } | undefined>(width !== undefined && height !== undefined ? { width, height } : undefined);
  return (
    <figure className="marked-image">
      <div className="image-box" style={size ? { maxWidth: size.width } : undefined}>
        <img src={src} alt={caption ?? 'observation'} onLoad={(event) => setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })} />
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
    </figure>
  );
}
