import { invertDirection, OBJECT_TYPES, relationKey, type ObjectRelation, type RelativeDirection } from './object-relations';

/** Words that name each object type, per env. */
const WORDS: Readonly<Record<'frozen-lake' | 'sokoban', Readonly<Record<string, string>>>> = {
  'frozen-lake': {
    player: 'player', agent: 'player', character: 'player', elf: 'player', avatar: 'player',
    goal: 'goal', gift: 'goal', destination: 'goal', treasure: 'goal', flag: 'goal',
    hole: 'hole', holes: 'hole', pit: 'hole', pits: 'hole',
  },
  sokoban: {
    player: 'player', agent: 'player', character: 'player', avatar: 'player', worker: 'player',
    target: 'target', targets: 'target', goal: 'target', goals: 'target', dock: 'target', docks: 'target', destination: 'target',
    box: 'box', boxes: 'box', crate: 'box', crates: 'box',
  },
};

const PATTERNS = Object.fromEntries(
  Object.entries(WORDS).map(([env, words]) => [env, new RegExp(`\\b(${Object.keys(words).join('|')})\\b`, 'gi')]),
) as Record<'frozen-lake' | 'sokoban', RegExp>;

/** A mention right after one of these words is the reference of a relation ("left of the player"). */
const REFERENCE_BEFORE =
  /\b(of|from|to|than|above|below|under|underneath|beneath|near|beside|on|in|into|inside|at)\s+(?:the\s+|a\s+|an\s+|my\s+|its\s+|that\s+)?$/i;
const SAME_PREPOSITIONS = new Set(['on', 'in', 'into', 'inside', 'at']);
/** A clause about a subject ends at these words ("…, so I move right"). */
const CLAUSE_END = /\b(?:so|but|therefore|thus|hence|then|because|while|whereas|which means)\b|,\s*(?:and\s+)?(?:i|we)\b/i;

const UP = /\b(?:up|upper|above|top|north|upward|upwards)\b/i;
const DOWN = /\b(?:down|lower|below|bottom|south|beneath|under|underneath|downward|downwards)\b/i;
const LEFT = /\b(?:left|west)\b/i;
const RIGHT = /\b(?:right|east)\b/i;
const SAME_GLOBAL = /\b(?:(?:the )?same (?:cell|position|square|tile|place|spot|location)|on top of|standing on)\b/gi;

interface Mention {
  type: string;
  start: number;
  end: number;
  /** The preposition before it when it is a reference. */
  preposition: string | undefined;
}

/**
 * The object relations a free-text description states, e.g. "The goal is below and to the right
 * of the player" → `goal down-right player`. Sentences are read one by one; each object mention
 * not introduced by a preposition is a subject, its reference is the next mention after "of / from
 * / above / on …" in its clause, or the player. Relations are normalised so that the reference is
 * the player where the player is named (then the target, in Sokoban).
 */
export function extractRelations(text: string, env: 'frozen-lake' | 'sokoban'): ObjectRelation[] {
  const words = WORDS[env];
  const order: readonly string[] = OBJECT_TYPES[env];
  const relations = new Map<string, ObjectRelation>();
  for (const sentence of text.split(/[.!?;\n]+/)) {
    const mentions: Mention[] = [];
    for (const match of sentence.matchAll(PATTERNS[env])) {
      const start = match.index;
      const preposition = REFERENCE_BEFORE.exec(sentence.slice(Math.max(0, start - 40), start))?.[1]?.toLowerCase();
      mentions.push({ type: words[match[1]!.toLowerCase()]!, start, end: start + match[0].length, preposition });
    }
    const subjects = mentions.filter((mention) => mention.preposition === undefined);
    subjects.forEach((subject, index) => {
      let spanEnd = subjects[index + 1]?.start ?? sentence.length;
      const clauseEnd = CLAUSE_END.exec(sentence.slice(subject.end, spanEnd));
      if (clauseEnd) spanEnd = subject.end + clauseEnd.index;
      const reference = mentions.find((m) => m.preposition !== undefined && m.start > subject.end && m.start < spanEnd);
      let directions: RelativeDirection[];
      if (reference) {
        directions = readDirections(sentence.slice(subject.end, reference.start), SAME_PREPOSITIONS.has(reference.preposition!));
        if (directions.length === 0) directions = readDirections(sentence.slice(reference.end, spanEnd), false);
      } else {
        directions = readDirections(sentence.slice(subject.end, spanEnd), false);
      }
      const referenceType = reference?.type ?? 'player';
      if (subject.type === 'player' && referenceType === 'player') return;
      for (const direction of directions) {
        const relation =
          order.indexOf(subject.type) < order.indexOf(referenceType)
            ? { subject: referenceType, direction: invertDirection(direction), reference: subject.type }
            : { subject: subject.type, direction, reference: referenceType };
        relations.set(relationKey(relation), relation);
      }
    });
  }
  return [...relations.values()];
}

function readDirections(raw: string, sameHint: boolean): RelativeDirection[] {
  // "on top of" and "same cell" say `same`; drop them so that "top" is not read as up.
  const text = raw.replace(SAME_GLOBAL, ' ');
  if (text !== raw) sameHint = true;
  const up = UP.test(text);
  const down = DOWN.test(text);
  const left = LEFT.test(text);
  const right = RIGHT.test(text);
  if (!up && !down && !left && !right) return sameHint ? ['same'] : [];
  if ((up && down) || (left && right)) {
    const singles: RelativeDirection[] = [];
    if (up) singles.push('up');
    if (down) singles.push('down');
    if (left) singles.push('left');
    if (right) singles.push('right');
    return singles;
  }
  const vertical = up ? 'up' : down ? 'down' : '';
  const horizontal = left ? 'left' : right ? 'right' : '';
  return [(vertical && horizontal ? `${vertical}-${horizontal}` : vertical || horizontal) as RelativeDirection];
}
