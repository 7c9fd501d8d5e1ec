/** Something to draw on an image: a box or a point, in the image's own pixels. */
export type Mark =
  | { kind: 'box'; x1: number; y1: number; x2: number; y2: number; label: string; call: number }
  | { kind: 'point'; x: number; y: number; label: string; call: number };

export interface ToolCallRecord {
  name?: string;
  arguments?: Record<string, unknown>;
  ok: boolean;
  failure?: string;
  error?: string;
  durationMs?: number;
  images?: number;
}

const numbers = (value: unknown, length: number): number[] | undefined =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number' && Number.isFinite(item)) ? (value as number[]) : undefined;

/** The boxes and points of a turn's tool calls (`bbox_2d`, `bbox`, `box`, `coordinate`, `point`, `x`/`y`). */
export function callMarks(calls: readonly ToolCallRecord[]): Mark[] {
  const marks: Mark[] = [];
  calls.forEach((call, index) => {
    const args = call.arguments ?? {};
    const label = `${index + 1}. ${call.name ?? '?'}${typeof args.label === 'string' ? `: ${args.label}` : ''}`;
    const box = numbers(args.bbox_2d, 4) ?? numbers(args.bbox, 4) ?? numbers(args.box, 4);
    if (box !== undefined) {
      const [x1, y1, x2, y2] = box as [number, number, number, number];
      marks.push({ kind: 'box', x1, y1, x2, y2, label, call: index });
      return;
    }
    const point = numbers(args.coordinate, 2) ?? numbers(args.point, 2) ?? (typeof args.x === 'number' && typeof args.y === 'number' ? [args.x, args.y] : undefined);
    if (point !== undefined) marks.push({ kind: 'point', x: point[0]!, y: point[1]!, label, call: index });
  });
  return marks;
}

/** Detections a tool returned as JSON (`{"detections": [{"bbox": [x1, y1, x2, y2], "label"}]}`) in a tool response. */
export function detectionMarks(responses: readonly string[]): Mark[] {
  const marks: Mark[] = [];
  responses.forEach((text, call) => {
    const start = text.indexOf('{');
    if (start === -1) return;
    try {
      const value = JSON.parse(text.slice(start, text.lastIndexOf('}') + 1)) as { detections?: { bbox?: unknown; label?: unknown }[] };
      for (const detection of value.detections ?? []) {
        const box = numbers(detection.bbox, 4);
        if (box === undefined) continue;
        const [x1, y1, x2, y2] = box as [number, number, number, number];
        marks.push({ kind: 'box', x1, y1, x2, y2, label: typeof detection.label === 'string' ? detection.label : 'detection', call });
      }
    } catch {
      // Not JSON: a text result, nothing to draw.
    }
  });
  return marks;
}

/** The `<tool_response>` sections of an observation, in order. */
export function toolResponses(text: string): string[] {
  return [...text.matchAll(/<tool_response>\n?([\s\S]*?)\n?<\/tool_response>/g)].map((match) => match[1] ?? '');
}
