/**
 * Character-level tokenizer: printable ASCII, tab and newline one id each, plus the output-format
 * tags (`<answer>`, `</tool_call>`, …) as single ids so the model writes a tag in one step, and
 * chat control tokens that only the chat template emits (text never encodes to them).
 */

/** Control tokens: emitted by the chat template and generation only. */
export const CONTROL_TOKENS = {
  pad: '<pad>',
  unknown: '<unk>',
  bos: '<bos>',
  /** End of a turn; generation stops here (the eos). */
  end: '<|end|>',
  system: '<|system|>',
  user: '<|user|>',
  assistant: '<|assistant|>',
  /** One slot per image token; the model writes image features here. */
  imagePad: '<image_pad>',
} as const;

/** Format tags that text encodes to single ids (REFERENCE.md §2). */
export const FORMAT_TAGS = [
  '<image>',
  '<think>',
  '</think>',
  '<answer>',
  '</answer>',
  '<observation>',
  '</observation>',
  '<reasoning>',
  '</reasoning>',
  '<prediction>',
  '</prediction>',
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
] as const;

function characterVocabulary(): string[] {
  const characters = ['\t', '\n'];
  for (let code = 32; code <= 126; code++) characters.push(String.fromCharCode(code));
  return characters;
}

/**
 * A Tokenizer as checkpoints store it (tokenizer.json): the vocabulary in id order and where its
 * control tokens and format tags end.
 */
export interface TokenizerJson {
  type: 'character';
  version: 1;
  /** Every token's string, in id order. */
  tokens: string[];
  /** How many leading ids are control tokens. */
  controlCount: number;
  /** How many ids after the control tokens are format tags. */
  tagCount: number;
}

/** Whether Tokenizer.decode leaves control tokens out of the text. */
export interface DecodeOptions {
  /** Leave control tokens (`<|end|>`, `<pad>`, …) out of the text. Default false. */
  skipControl?: boolean;
}

/**
 * The built-in model's character-level tokenizer (see the top of this file): encodes text, decodes
 * ids, and names the control token ids the chat template and sampler use.
 */
export class Tokenizer {
  readonly tokens: readonly string[];
  readonly padId: number;
  readonly unknownId: number;
  readonly bosId: number;
  readonly endId: number;
  readonly systemId: number;
  readonly userId: number;
  readonly assistantId: number;
  readonly imagePadId: number;
  private readonly controlCount: number;
  private readonly tagCount: number;
  private readonly characterIds = new Map<string, number>();
  /** Tags longest first, so that a longer tag wins over a prefix. */
  private readonly tags: { text: string; id: number }[] = [];

  constructor(json: TokenizerJson = Tokenizer.defaultJson()) {
    this.tokens = [...json.tokens];
    this.controlCount = json.controlCount;
    this.tagCount = json.tagCount;
    const id = (text: string): number => {
      const index = this.tokens.indexOf(text);
      if (index < 0 || index >= this.controlCount) throw new Error(`Tokenizer vocabulary lacks control token ${text}.`);
      return index;
    };
    this.padId = id(CONTROL_TOKENS.pad);
    this.unknownId = id(CONTROL_TOKENS.unknown);
    this.bosId = id(CONTROL_TOKENS.bos);
    this.endId = id(CONTROL_TOKENS.end);
    this.systemId = id(CONTROL_TOKENS.system);
    this.userId = id(CONTROL_TOKENS.user);
    this.assistantId = id(CONTROL_TOKENS.assistant);
    this.imagePadId = id(CONTROL_TOKENS.imagePad);
    const tagEnd = this.controlCount + this.tagCount;
    this.tokens.forEach((text, index) => {
      if (index >= tagEnd) this.characterIds.set(text, index);
      else if (index >= this.controlCount) this.tags.push({ text, id: index });
    });
    this.tags.sort((a, b) => b.text.length - a.text.length);
  }

  static defaultJson(): TokenizerJson {
    const control = Object.values(CONTROL_TOKENS);
    return {
      type: 'character',
      version: 1,
      tokens: [...control, ...FORMAT_TAGS, ...characterVocabulary()],
      controlCount: control.length,
      tagCount: FORMAT_TAGS.length,
    };
  }

  get vocabularySize(): number {
    return this.tokens.length;
  }

  /** Text to ids; format tags become one id, unknown characters the unknown id (never throws). */
  encode(text: string): number[] {
    const ids: number[] = [];
    let position = 0;
    while (position < text.length) {
      if (text[position] === '<') {
        const tag = this.tags.find((candidate) => text.startsWith(candidate.text, position));
        if (tag) {
          ids.push(tag.id);
          position += tag.text.length;
          continue;
        }
      }
      // Code points, so that one astral character is one unknown id rather than two.
      const codePoint = text.codePointAt(position) ?? 0;
      const character = String.fromCodePoint(codePoint);
      ids.push(this.characterIds.get(character) ?? this.unknownId);
      position += character.length;
    }
    return ids;
  }

  decode(ids: readonly number[], options: DecodeOptions = {}): string {
    let text = '';
    for (const id of ids) {
      if (id === this.unknownId) {
        if (!options.skipControl) text += '\uFFFD';
        continue;
      }
      if (options.skipControl && this.isControl(id)) continue;
      text += this.tokens[id] ?? '\uFFFD';
    }
    return text;
  }

  isControl(id: number): boolean {
    return id >= 0 && id < this.controlCount;
  }

  toJSON(): TokenizerJson {
    return {
      type: 'character',
      version: 1,
      tokens: [...this.tokens],
      controlCount: this.controlCount,
      tagCount: this.tagCount,
    };
  }
}
