import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeTinySmolVlm } from './__fixtures__/tiny-vlm';
import { createTransformersAgent } from './create-transformers-agent';
import { ModelFolderError } from './errors/model-folder-error';
import { inspectModelFolder, resolvePartDtype } from './model-folder';

let scratch: string;
let good: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'saccade-model-folder-'));
  good = writeTinySmolVlm(join(scratch, 'good'));
});

/** A copy of the tiny model, changed by `edit`. */
function variant(name: string, edit: (folder: string) => void): string {
  const folder = join(scratch, name);
  cpSync(good, folder, { recursive: true });
  edit(folder);
  return folder;
}

function editJson(file: string, change: (json: Record<string, unknown>) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(json);
  writeFileSync(file, JSON.stringify(json));
}

async function loadError(modelPath: string, settings: { dtype?: 'q4' } = {}): Promise<ModelFolderError> {
  const error = await createTransformersAgent({ modelPath, ...settings }).then(
    (agent) => agent.dispose().then(() => undefined),
    (caught: unknown) => caught,
  );
  expect(ModelFolderError.isInstance(error), String(error)).toBe(true);
  return error as ModelFolderError;
}

describe('model folder errors', () => {
  it('a folder that does not exist', async () => {
    const missing = join(scratch, 'nowhere', 'SmolVLM-256M-Instruct');
    const error = await loadError(missing);
    expect(error).toMatchObject({ name: 'Saccade_ModelFolderError', modelPath: missing, path: missing });
    expect(error.message).toBe(
      `Model folder ${missing} cannot be used: expected a folder holding an ONNX export (config.json, tokenizer files, onnx/*.onnx); found nothing at that path.`,
    );
  });

  it('a file where the folder should be', async () => {
    const file = join(scratch, 'model.onnx');
    writeFileSync(file, 'x');
    expect((await loadError(file)).found).toBe('a file');
  });

  it('a folder without config.json', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    const error = await loadError(empty);
    expect(error.path).toBe(join(empty, 'config.json'));
    expect(error.message).toContain(`${join(empty, 'config.json')}: expected config.json with the model_type`);
    expect(error.found).toBe('no such file');
  });

  it('a config.json that is not JSON, or has no model_type', async () => {
    const broken = variant('broken-config', (folder) => writeFileSync(join(folder, 'config.json'), '{"model_type": '));
    expect((await loadError(broken)).found).toMatch(/^text that is not JSON/);
    const untyped = variant('untyped', (folder) => editJson(join(folder, 'config.json'), (json) => delete json['model_type']));
    expect((await loadError(untyped)).message).toMatch(/expected a "model_type" string \(one of idefics3, smolvlm, qwen2_vl, qwen2_5_vl, florence2\); found no model_type/);
  });

  it('a model type the agent does not run', async () => {
    const bert = variant('bert', (folder) => editJson(join(folder, 'config.json'), (json) => (json['model_type'] = 'bert')));
    const error = await loadError(bert);
    expect(error.expected).toBe('a vision-language model_type this agent runs: idefics3, smolvlm, qwen2_vl, qwen2_5_vl, florence2');
    expect(error.found).toBe('model_type "bert"');
  });

  it('a processor file missing', async () => {
    const folder = variant('no-tokenizer', (path) => rmSync(join(path, 'tokenizer.json')));
    const error = await loadError(folder);
    expect(error.path).toBe(join(folder, 'tokenizer.json'));
    expect(error.message).toContain('expected tokenizer.json, which the SmolVLM (Idefics3) processor reads; found no such file');
  });

  it('an ONNX part missing, listing what onnx/ holds', async () => {
    const folder = variant('no-decoder', (path) => rmSync(join(path, 'onnx', 'decoder_model_merged.onnx')));
    const error = await loadError(folder);
    expect(error.path).toBe(join(folder, 'onnx', 'decoder_model_merged.onnx'));
    expect(error.expected).toBe(
      'onnx/decoder_model_merged.onnx (the decoder_model_merged part of a SmolVLM (Idefics3) export, dtype fp32; SmolVLM (Idefics3) needs vision_encoder, embed_tokens, decoder_model_merged)',
    );
    expect(error.found).toBe('no such file; onnx/ holds embed_tokens.onnx, vision_encoder.onnx');
  });

  it('a dtype whose files are not there, pointing at the ones that are', async () => {
    const error = await loadError(good, { dtype: 'q4' });
    expect(error.path).toBe(join(good, 'onnx', 'vision_encoder_q4.onnx'));
    expect(error.found).toBe('no such file; onnx/ holds vision_encoder.onnx (choose one with the dtype setting)');
  });

  it('a corrupt ONNX file', async () => {
    const folder = variant('corrupt', (path) => writeFileSync(join(path, 'onnx', 'embed_tokens.onnx'), 'this is not a protobuf'));
    const error = await loadError(folder);
    expect(error.expected).toContain('valid ONNX files for a SmolVLM (Idefics3) export (onnx/vision_encoder.onnx, onnx/embed_tokens.onnx, onnx/decoder_model_merged.onnx)');
    expect(error.found).toMatch(/^an error while loading the model: .*embed_tokens\.onnx/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('an empty ONNX file', async () => {
    const folder = variant('empty-onnx', (path) => writeFileSync(join(path, 'onnx', 'vision_encoder.onnx'), ''));
    expect((await loadError(folder)).found).toBe('an empty file');
  });

  it('a preprocessor_config.json without processor_class, and a tokenizer without a chat template', async () => {
    const noClass = variant('no-class', (path) => editJson(join(path, 'preprocessor_config.json'), (json) => delete json['processor_class']));
    expect((await loadError(noClass)).message).toContain('expected a "processor_class" naming a SmolVLM (Idefics3) processor (with a tokenizer), e.g. "Idefics3Processor"; found no processor_class');
    const noTemplate = variant('no-template', (path) => editJson(join(path, 'tokenizer_config.json'), (json) => delete json['chat_template']));
    const error = await loadError(noTemplate);
    expect(error.path).toBe(join(noTemplate, 'tokenizer_config.json'));
    expect(error.expected).toMatch(/chat_template/);
  });
});

describe('inspectModelFolder', () => {
  it('lists the ONNX files of the chosen dtypes, per part', () => {
    const folder = variant('mixed', (path) => {
      for (const part of ['vision_encoder', 'embed_tokens', 'decoder_model_merged']) cpSync(join(path, 'onnx', `${part}.onnx`), join(path, 'onnx', `${part}_q4.onnx`));
    });
    expect(inspectModelFolder(folder, { dtype: { decoder_model_merged: 'q4' } }).onnxFiles).toEqual([
      'onnx/vision_encoder.onnx',
      'onnx/embed_tokens.onnx',
      'onnx/decoder_model_merged_q4.onnx',
    ]);
    expect(inspectModelFolder(folder, { dtype: 'q4' }).onnxFiles.every((file) => file.endsWith('_q4.onnx'))).toBe(true);
  });

  it('resolves dtypes as transformers.js does: setting, then the folder\'s transformers.js_config, then fp32', () => {
    const config = { 'transformers.js_config': { dtype: { vision_encoder: 'fp16', decoder_model_merged: 'q4' }, device_config: { cuda: { dtype: 'fp16' } } } };
    expect(resolvePartDtype('vision_encoder', undefined, config, 'cpu')).toBe('fp16');
    expect(resolvePartDtype('embed_tokens', undefined, config, 'cpu')).toBe('fp32');
    expect(resolvePartDtype('decoder_model_merged', 'q8', config, 'cpu')).toBe('q8');
    expect(resolvePartDtype('decoder_model_merged', 'auto', config, 'cpu')).toBe('q4');
    expect(resolvePartDtype('embed_tokens', undefined, config, 'cuda')).toBe('fp16');
    expect(resolvePartDtype('embed_tokens', undefined, {}, 'cpu')).toBe('fp32');
  });
});
