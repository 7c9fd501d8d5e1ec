import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOnnxModel } from './onnx-writer';

/**
 * Genuine, tiny ONNX exports shaped like SmolVLM (Idefics3) and Qwen2-VL, which transformers.js
 * loads and runs: the three parts a real export has (vision_encoder, embed_tokens,
 * decoder_model_merged with a KV cache), a word-level tokenizer, the family's chat template and
 * image-processor settings. A few kilobytes, written offline.
 *
 * What they compute: token embeddings are one-hot; the decoder's logits are a fixed transition
 * table from the last token (end of the prompt → "<answer>" → Left|Right → "</answer>" → end of
 * turn), plus a term read from the sum of everything in the KV cache along one extra dimension,
 * where the vision encoder writes each image's mean (normalised) brightness. So after "<answer>"
 * the model says Right when the images are bright and Left when they are dark (greedy; sampling
 * at temperature 1 picks the likelier one 60% of the time for one image): the image really flows
 * through processor → vision encoder → merge at the image tokens → decoder.
 */
const SHARED = ['<answer>', '</answer>', 'Left', 'Right'] as const;

/** SmolVLM's vocabulary: ids 6–9 and 13–15 are the same in both models. */
export const TINY_VOCAB = [
  '<unk>',
  '<|im_start|>',
  '<end_of_utterance>',
  '<image>',
  '<fake_token_around_image>',
  '<global-img>',
  ...SHARED,
  'User',
  'Assistant',
  'System',
  ':',
  'Up',
  'Down',
] as const;

/** The tiny Qwen2-VL model's vocabulary: Qwen's chat and vision tokens, the answer words, the roles. */
export const TINY_QWEN2_VL_VOCAB = [
  '<unk>',
  '<|im_start|>',
  '<|im_end|>',
  '<|image_pad|>',
  '<|vision_start|>',
  '<|vision_end|>',
  ...SHARED,
  'user',
  'assistant',
  'system',
  ':',
  'Up',
  'Down',
] as const;

interface Family {
  vocabulary: readonly string[];
  /** Tokens the tokenizer must match whole (special ones are dropped when decoding). */
  special: readonly string[];
  /** The last token of a prompt: the model answers after it. */
  promptEnd: string;
  endOfTurn: string;
  imageToken: string;
  chatTemplate: string;
  config: Record<string, unknown>;
  preprocessor: Record<string, unknown>;
  processor?: Record<string, unknown>;
  /** Values of pixel_values that make one image token, and the shape the vision encoder reads. */
  visionInput: readonly (number | string)[];
  /** Image tokens per image. */
  imageTokens: number;
}

const V = TINY_VOCAB.length;
/** Hidden size: one dimension per token, and one for the image's brightness. */
const D = V + 1;
const BRIGHTNESS = V;

const SMOLVLM: Family = {
  vocabulary: TINY_VOCAB,
  special: ['<unk>', '<|im_start|>', '<end_of_utterance>', '<image>', '<fake_token_around_image>', '<global-img>'],
  promptEnd: ':',
  endOfTurn: '<end_of_utterance>',
  imageToken: '<image>',
  chatTemplate:
    "<|im_start|>{% for message in messages %}{{message['role'] | capitalize}}{% if message['content'][0]['type'] == 'image' %}{{':'}}{% else %}{{': '}}{% endif %}" +
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{line['text']}}{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n{% endfor %}" +
    "{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}",
  config: {
    model_type: 'idefics3',
    architectures: ['Idefics3ForConditionalGeneration'],
    scale_factor: 1,
    text_config: { model_type: 'llama', hidden_size: D, head_dim: D, num_attention_heads: 1, num_key_value_heads: 1, num_hidden_layers: 1, vocab_size: V, max_position_embeddings: 4096 },
    vision_config: { model_type: 'idefics3_vision', hidden_size: D },
  },
  preprocessor: {
    image_processor_type: 'Idefics3ImageProcessor',
    processor_class: 'Idefics3Processor',
    do_convert_rgb: true,
    do_resize: true,
    size: { longest_edge: 8 },
    max_image_size: { longest_edge: 8 },
    do_image_splitting: false,
    resample: 1,
    do_rescale: true,
    rescale_factor: 1 / 255,
    do_normalize: true,
    image_mean: [0.5, 0.5, 0.5],
    image_std: [0.5, 0.5, 0.5],
    do_pad: true,
  },
  processor: { processor_class: 'Idefics3Processor', image_seq_len: 2 },
  // [batch, images, 3, height, width]: one mean per image, written into image_seq_len tokens.
  visionInput: ['batch', 'images', 3, 'height', 'width'],
  imageTokens: 2,
};

const QWEN2_VL: Family = {
  vocabulary: TINY_QWEN2_VL_VOCAB,
  special: ['<unk>', '<|im_start|>', '<|im_end|>', '<|image_pad|>', '<|vision_start|>', '<|vision_end|>'],
  promptEnd: 'assistant',
  endOfTurn: '<|im_end|>',
  imageToken: '<|image_pad|>',
  chatTemplate:
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}{% else %}" +
    "{% for content in message['content'] %}{% if content['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}{% endfor %}" +
    "{% endif %}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
  config: {
    model_type: 'qwen2_vl',
    architectures: ['Qwen2VLForConditionalGeneration'],
    hidden_size: D,
    head_dim: D,
    num_attention_heads: 1,
    num_key_value_heads: 1,
    num_hidden_layers: 1,
    vocab_size: V,
    max_position_embeddings: 4096,
    vision_start_token_id: TINY_QWEN2_VL_VOCAB.indexOf('<|vision_start|>'),
    vision_end_token_id: TINY_QWEN2_VL_VOCAB.indexOf('<|vision_end|>'),
    vision_config: { spatial_merge_size: 2 },
  },
  preprocessor: {
    image_processor_type: 'Qwen2VLImageProcessor',
    processor_class: 'Qwen2VLProcessor',
    do_convert_rgb: true,
    do_resize: true,
    min_pixels: 28 * 28,
    max_pixels: 28 * 28,
    patch_size: 14,
    temporal_patch_size: 2,
    merge_size: 2,
    resample: 3,
    do_rescale: true,
    rescale_factor: 1 / 255,
    do_normalize: true,
    image_mean: [0.5, 0.5, 0.5],
    image_std: [0.5, 0.5, 0.5],
  },
  // [patches, 3 · 2 · 14 · 14]: 2 × 2 patches merge into one image token.
  visionInput: ['patches', 3 * 2 * 14 * 14],
  imageTokens: 1,
};

function embedTokens(): Uint8Array {
  const table = new Float32Array(V * D);
  for (let token = 0; token < V; token++) table[token * D + token] = 1;
  return writeOnnxModel({
    name: 'embed_tokens',
    inputs: [{ name: 'input_ids', type: 'int64', shape: ['batch', 'sequence'] }],
    outputs: [{ name: 'inputs_embeds', type: 'float', shape: ['batch', 'sequence', D] }],
    nodes: [{ op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['inputs_embeds'], attributes: { axis: 0 } }],
    initializers: [{ name: 'table', dims: [V, D], values: table }],
  });
}

function visionEncoder(family: Family): Uint8Array {
  const tokens = family.imageTokens;
  const direction = new Float32Array(tokens * D);
  for (let position = 0; position < tokens; position++) direction[position * D + BRIGHTNESS] = 1;
  const smolvlm = family === SMOLVLM;
  return writeOnnxModel({
    name: 'vision_encoder',
    inputs: [
      { name: 'pixel_values', type: 'float', shape: family.visionInput },
      ...(smolvlm ? [] : [{ name: 'grid_thw', type: 'int64' as const, shape: ['images', 3] }]),
    ],
    outputs: [{ name: 'image_features', type: 'float', shape: smolvlm ? ['images', tokens, D] : ['tokens', D] }],
    nodes: smolvlm
      ? [
          // One mean per image → [images, 1, 1] × [1, tokens, D].
          { op: 'ReduceMean', inputs: ['pixel_values'], outputs: ['mean'], attributes: { axes: [-3, -2, -1], keepdims: 1 } },
          { op: 'Reshape', inputs: ['mean', 'shape'], outputs: ['brightness'] },
          { op: 'Mul', inputs: ['brightness', 'direction'], outputs: ['image_features'] },
        ]
      : [
          // Each run of 4 patches (one merge window) → one token: [tokens, 4 · 1176] → mean → [tokens, 1] × [1, D].
          { op: 'Reshape', inputs: ['pixel_values', 'shape'], outputs: ['windows'] },
          { op: 'ReduceMean', inputs: ['windows'], outputs: ['brightness'], attributes: { axes: [1], keepdims: 1 } },
          { op: 'Mul', inputs: ['brightness', 'direction'], outputs: ['image_features'] },
        ],
    initializers: [
      smolvlm ? { name: 'shape', dims: [3], values: [-1, 1, 1], type: 'int64' } : { name: 'shape', dims: [2], values: [-1, 4 * 3 * 2 * 14 * 14], type: 'int64' },
      { name: 'direction', dims: smolvlm ? [1, tokens, D] : [1, D], values: direction },
    ],
  });
}

function decoder(family: Family): Uint8Array {
  const id = (token: string): number => family.vocabulary.indexOf(token);
  const next = (token: string): string[] => {
    if (token === family.promptEnd) return ['<answer>'];
    if (token === '<answer>') return ['Left', 'Right'];
    if (token === 'Left' || token === 'Right') return ['</answer>'];
    return [family.endOfTurn];
  };
  // Large enough that sampling at temperature 1 follows the table too (other tokens: ~e^-20 each).
  const transitions = new Float32Array(D * V);
  family.vocabulary.forEach((token, index) => next(token).forEach((to) => (transitions[index * V + id(to)] = 20)));
  const fromImage = new Float32Array(D * V);
  fromImage[BRIGHTNESS * V + id('Right')] = 0.1;
  fromImage[BRIGHTNESS * V + id('Left')] = -0.1;
  const cache = (name: string) => ({ name, type: 'float' as const, shape: ['batch', 1, name.startsWith('past') ? 'past' : 'total', D] });
  return writeOnnxModel({
    name: 'decoder_model_merged',
    inputs: [
      { name: 'inputs_embeds', type: 'float', shape: ['batch', 'sequence', D] },
      cache('past_key_values.0.key'),
      cache('past_key_values.0.value'),
      // Qwen2-VL exports take 3-D rotary positions; transformers.js computes them when the decoder asks (unused here).
      ...(family === QWEN2_VL ? [{ name: 'position_ids', type: 'int64' as const, shape: [3, 'batch', 'sequence'] }] : []),
    ],
    outputs: [{ name: 'logits', type: 'float', shape: ['batch', 'sequence', V] }, cache('present.0.key'), cache('present.0.value')],
    nodes: [
      { op: 'Unsqueeze', inputs: ['inputs_embeds', 'axis_1'], outputs: ['step'] },
      { op: 'Concat', inputs: ['past_key_values.0.key', 'step'], outputs: ['present.0.key'], attributes: { axis: 2 } },
      { op: 'Concat', inputs: ['past_key_values.0.value', 'step'], outputs: ['present.0.value'], attributes: { axis: 2 } },
      { op: 'ReduceSum', inputs: ['present.0.key', 'axis_2'], outputs: ['seen'], attributes: { keepdims: 0 } },
      { op: 'MatMul', inputs: ['seen', 'from_image'], outputs: ['image_bias'] },
      { op: 'MatMul', inputs: ['inputs_embeds', 'transitions'], outputs: ['token_logits'] },
      { op: 'Add', inputs: ['token_logits', 'image_bias'], outputs: ['logits'] },
    ],
    initializers: [
      { name: 'axis_1', dims: [1], values: [1], type: 'int64' },
      { name: 'axis_2', dims: [1], values: [2], type: 'int64' },
      { name: 'transitions', dims: [D, V], values: transitions },
      { name: 'from_image', dims: [D, V], values: fromImage },
    ],
  });
}

function tokenizerJson(family: Family): unknown {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: family.vocabulary
      .filter((token) => family.special.includes(token) || token.includes('answer'))
      .map((token) => ({
        id: family.vocabulary.indexOf(token),
        content: token,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: family.special.includes(token),
      })),
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: { type: 'Fuse' },
    model: { type: 'WordLevel', vocab: Object.fromEntries(family.vocabulary.map((token, index) => [token, index])), unk_token: '<unk>' },
  };
}

function writeTinyVlm(folder: string, family: Family): string {
  const id = (token: string): number => family.vocabulary.indexOf(token);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const json = (name: string, value: unknown): void => writeFileSync(join(folder, name), `${JSON.stringify(value, null, 2)}\n`);
  const ids = { bos_token_id: id('<|im_start|>'), eos_token_id: id(family.endOfTurn), pad_token_id: id('<unk>') };
  json('config.json', { ...family.config, ...ids, image_token_id: id(family.imageToken) });
  json('generation_config.json', ids);
  json('tokenizer.json', tokenizerJson(family));
  json('tokenizer_config.json', {
    tokenizer_class: 'PreTrainedTokenizer',
    bos_token: '<|im_start|>',
    eos_token: family.endOfTurn,
    unk_token: '<unk>',
    pad_token: '<unk>',
    add_bos_token: false,
    chat_template: family.chatTemplate,
  });
  json('preprocessor_config.json', family.preprocessor);
  if (family.processor !== undefined) json('processor_config.json', family.processor);
  writeFileSync(join(folder, 'onnx', 'vision_encoder.onnx'), visionEncoder(family));
  writeFileSync(join(folder, 'onnx', 'embed_tokens.onnx'), embedTokens());
  writeFileSync(join(folder, 'onnx', 'decoder_model_merged.onnx'), decoder(family));
  return folder;
}

/** Writes the tiny SmolVLM-shaped (Idefics3) model into `folder` (created if needed) and returns the folder. */
export function writeTinySmolVlm(folder: string): string {
  return writeTinyVlm(folder, SMOLVLM);
}

/** Writes the tiny Qwen2-VL-shaped model into `folder` (created if needed) and returns the folder. */
export function writeTinyQwen2Vl(folder: string): string {
  return writeTinyVlm(folder, QWEN2_VL);
}
