/** The strict response formats of VAGEN (see docs/formats.md). */
export const OUTPUT_FORMATS = [
  'free_think',
  'no_think',
  'grounding',
  'worldmodeling',
  'grounding_worldmodeling',
] as const;

/** One of VAGEN's response formats (`OUTPUT_FORMATS`): free_think, no_think, grounding, worldmodeling, grounding_worldmodeling. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The tags a format's parts are written in. */
export type FormatTag = 'think' | 'observation' | 'reasoning' | 'prediction' | 'answer';

/** A format as a layout: tags with content, nested in `think` or at the top level. */
interface FormatLayout {
  /** Tags inside `<think>…</think>`, in order; `null` when the format has no think block. */
  think: FormatTag[] | null;
}

export const FORMAT_LAYOUTS: Record<OutputFormat, FormatLayout> = {
  free_think: { think: [] },
  no_think: { think: null },
  grounding: { think: ['observation', 'reasoning'] },
  worldmodeling: { think: ['reasoning', 'prediction'] },
  grounding_worldmodeling: { think: ['observation', 'reasoning', 'prediction'] },
};

/** The shape of a format, e.g. `<think>…</think><answer>…</answer>`, for prompts and errors. */
export function formatTemplate(format: OutputFormat): string {
  const { think } = FORMAT_LAYOUTS[format];
  const inner = think === null ? '' : think.length === 0 ? '…' : think.map((tag) => `<${tag}>…</${tag}>`).join('');
  return `${think === null ? '' : `<think>${inner}</think>`}<answer>…</answer>`;
}
