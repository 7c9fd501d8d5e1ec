// Reads the objects a visual-search SVG draws, from the markup alone (never the generator's numbers):
// the tests' independent check of what a scene holds without rasterising 2048-px images.
import { COLOURS, type ColourName } from '../src/common/palette';

export interface SceneObject {
  shape: 'circle' | 'square' | 'triangle' | 'diamond' | 'star' | 'cross' | 'ring';
  colour: ColourName;
  /** `[x1, y1, x2, y2]`, exact. */
  box: [number, number, number, number];
}

const colourOfHex = new Map(Object.entries(COLOURS).map(([name, hex]) => [hex as string, name as ColourName]));
const round = (value: number) => Math.round(value * 100) / 100;

/** The palette-coloured shapes of a visual-search SVG, in drawing order (a cross's two bars are one). */
export function sceneObjects(svg: string): SceneObject[] {
  const objects: SceneObject[] = [];
  let bar: { colour: ColourName; x: number; y: number; width: number; height: number } | undefined;
  for (const [, element, attributeText] of svg.matchAll(/<(circle|rect|polygon)\s([^>]*?)\/>/g)) {
    const attributes = Object.fromEntries([...attributeText!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
    const colour = colourOfHex.get(attributes['fill'] === 'none' ? attributes['stroke']! : attributes['fill']!);
    // The background and the pale patches are not palette colours.
    if (colour === undefined) continue;
    const n = (name: string) => Number(attributes[name]);
    if (element === 'circle') {
      const ring = attributes['fill'] === 'none';
      const radius = ring ? n('r') + n('stroke-width') / 2 : n('r');
      objects.push({ shape: ring ? 'ring' : 'circle', colour, box: [n('cx') - radius, n('cy') - radius, n('cx') + radius, n('cy') + radius] });
    } else if (element === 'rect') {
      const rect = { colour, x: n('x'), y: n('y'), width: n('width'), height: n('height') };
      if (rect.width === rect.height && bar === undefined) {
        objects.push({ shape: 'square', colour, box: [rect.x, rect.y, rect.x + rect.width, rect.y + rect.height] });
      } else if (bar === undefined) {
        bar = rect;
      } else {
        // A cross is a horizontal bar, then a vertical one of the same colour and centre.
        const centre = (r: typeof rect) => `${r.x + r.width / 2},${r.y + r.height / 2}`;
        if (bar.colour !== colour || centre(bar) !== centre(rect) || bar.width <= bar.height || rect.width >= rect.height) throw new Error(`unpaired cross bar at ${centre(bar)}`);
        objects.push({ shape: 'cross', colour, box: [bar.x, rect.y, bar.x + bar.width, rect.y + rect.height] });
        bar = undefined;
      }
    } else {
      const points = attributes['points']!.split(' ').map((pair) => pair.split(',').map(Number) as [number, number]);
      const shape = ({ 3: 'triangle', 4: 'diamond', 10: 'star' } as const)[points.length as 3 | 4 | 10];
      if (shape === undefined) throw new Error(`a polygon of ${points.length} points`);
      const xs = points.map(([x]) => x);
      const ys = points.map(([, y]) => y);
      objects.push({ shape, colour, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map(round) as SceneObject['box'] });
    }
  }
  if (bar !== undefined) throw new Error('a cross bar without its pair');
  return objects;
}
