/**
 * VAGEN's prompt formats beyond the five layouts (`grounding_symbolic`, `worldmodeling_structured`,
 * …). VAGEN parses each with the layout it extends (its PARSE_FUNC_MAP) and only adds one line to
 * the prompt saying what to write inside `<observation>` / `<prediction>`: a symbol grid or a
 * position dictionary. Here too: the env reads the base layout and the line is added to the system
 * prompt. (VAGEN's prompt files write the dictionaries' braces doubled, `{{…}}`, and send them
 * so; the intended single braces are sent here.)
 */
export type VagenBaseFormat = 'grounding' | 'worldmodeling' | 'grounding_worldmodeling';

const FROZEN_LAKE_SYMBOLS = '_ Frozen | O Hole | G Goal | P Player | X Player fell into hole | √ Player on goal.';
const SOKOBAN_SYMBOLS = '# Wall | _ Floor | O Target | X Box | P You | √ Box on Target | S You on Target.';

const NOTES: Record<'frozenlake' | 'sokoban', Record<string, { base: VagenBaseFormat; note: string }>> = {
  frozenlake: {
    grounding_symbolic: { base: 'grounding', note: `The observation should be represented as a grid using the symbols: ${FROZEN_LAKE_SYMBOLS}` },
    worldmodeling_symbolic: { base: 'worldmodeling', note: `The prediction should be represented as a grid using the symbols: ${FROZEN_LAKE_SYMBOLS}` },
    grounding_worldmodeling_symbolic: { base: 'grounding_worldmodeling', note: `The observation and state should be represented as grids using the symbols: ${FROZEN_LAKE_SYMBOLS}` },
    grounding_structured: { base: 'grounding', note: "The observation should be in the format of {'player':(row,column),'target':(row,column)}" },
    worldmodeling_structured: { base: 'worldmodeling', note: "The prediction should be in the format of {'player':(row,column),'target':(row,column)}" },
    grounding_worldmodeling_structured: { base: 'grounding_worldmodeling', note: "The observation and prediction should be in the format of {'player':(row,column),'target':(row,column)}" },
  },
  sokoban: {
    grounding_symbolic: { base: 'grounding', note: `The state should be represented as a grid using the symbols: ${SOKOBAN_SYMBOLS}` },
    worldmodeling_symbolic: { base: 'worldmodeling', note: `The state should be represented as a grid using the symbols: ${SOKOBAN_SYMBOLS}` },
    grounding_worldmodeling_symbolic: { base: 'grounding_worldmodeling', note: `The observation and state should be represented as grids using the symbols: ${SOKOBAN_SYMBOLS}` },
    grounding_structured: { base: 'grounding', note: 'The observation should be in the format of {"player":(row,column),"box":(row,column),"target":(row,column)}' },
    worldmodeling_structured: { base: 'worldmodeling', note: 'The prediction should be in the format of {"player":(row,column),"box":(row,column),"target":(row,column)}' },
    grounding_worldmodeling_structured: {
      base: 'grounding_worldmodeling',
      note: 'The observation and prediction should be in the format of [{"object_id":target,"vertical_relation":"xxx","horizontal_relation":"xxx"},{"object_id":box,"vertical_relation":"xxx","horizontal_relation":"xxx"}]',
    },
  },
};

/** The five layouts every grid env reads. */
export const VAGEN_LAYOUT_FORMATS: readonly string[] = ['free_think', 'no_think', 'grounding', 'worldmodeling', 'grounding_worldmodeling'];

/** Every prompt format VAGEN ships for FrozenLake and Sokoban. */
export const VAGEN_PROMPT_FORMATS: readonly string[] = [...VAGEN_LAYOUT_FORMATS, ...Object.keys(NOTES.frozenlake)];

/** The layout and prompt line of a VAGEN prompt format, or undefined for one of the five layouts. */
export function vagenPromptFormat(envName: 'frozenlake' | 'sokoban', format: string): { base: VagenBaseFormat; note: string } | undefined {
  return NOTES[envName][format];
}
