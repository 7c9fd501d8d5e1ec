import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeJpeg, encodePng, toDataUrl } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundingFileError } from '../errors/grounding-file-error';
import { readSftExamples } from './read-sft-examples';
import { sftDemonstrations } from './sft-demonstrations';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-layouts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pixels = (value: number) => ({ data: new Uint8Array(8 * 8 * 3).fill(value), width: 8, height: 8, channels: 3 as const });
let png = '';

/** A folder with the images the files below name, as each tool lays them out. */
function folder(name: string): string {
  const path = join(scratch, name);
  mkdirSync(path, { recursive: true });
  return path;
}

// Python's json.dump(records, f, indent=2, ensure_ascii=False), as LLaMA-Factory's and LLaVA's .json files are written.
const pythonJson = (value: unknown) => JSON.stringify(value, null, 2);

beforeAll(async () => {
  const jpeg = (await encodeJpeg(pixels(120))).data;
  png = toDataUrl(await encodePng(pixels(30)));
  for (const name of ['llama-factory', 'llama-factory-tags', 'llava', 'openai', 'bad']) {
    mkdirSync(join(scratch, name, 'mllm_demo_data'), { recursive: true });
    writeFileSync(join(scratch, name, 'mllm_demo_data', '1.jpg'), jpeg);
    writeFileSync(join(scratch, name, 'mllm_demo_data', '2.jpg'), jpeg);
  }
  writeFileSync(join(scratch, 'outside.jpg'), jpeg);
});

describe('SFT files from other tools', () => {
  it("LLaMA-Factory's mllm_demo.json with its dataset_info.json mapping: messages, <image> placeholders, images beside the file", async () => {
    const dir = folder('llama-factory');
    const file = join(dir, 'mllm_demo.json');
    writeFileSync(
      file,
      pythonJson([
        {
          messages: [
            { content: '<image>Who are they?', role: 'user' },
            { content: "They're Kane and Gretzka from Bayern Munich.", role: 'assistant' },
            { content: 'What are they doing?<image>', role: 'user' },
            { content: 'They are celebrating on the soccer field.', role: 'assistant' },
          ],
          images: ['mllm_demo_data/1.jpg', 'mllm_demo_data/1.jpg'],
        },
        { messages: [{ content: '<image>Who is he?', role: 'user' }, { content: "He's Thomas Muller from Bayern Munich.", role: 'assistant' }], images: ['mllm_demo_data/2.jpg'] },
      ]),
    );
    writeFileSync(
      join(dir, 'dataset_info.json'),
      pythonJson({
        mllm_demo: { file_name: 'mllm_demo.json', formatting: 'sharegpt', columns: { messages: 'messages', images: 'images' }, tags: { role_tag: 'role', content_tag: 'content', user_tag: 'user', assistant_tag: 'assistant' } },
      }),
    );
    const { examples, skipped } = await readSftExamples(file);
    expect(skipped).toBe(0);
    // Each record's line is where it begins: the second after the first's 23 lines.
    expect(examples.map(({ id, layout, line, images }) => ({ id, layout, line, images }))).toEqual([
      { id: 'mllm_demo.json:2', layout: 'sharegpt', line: 2, images: [join(dir, 'mllm_demo_data/1.jpg'), join(dir, 'mllm_demo_data/1.jpg')] },
      { id: 'mllm_demo.json:26', layout: 'sharegpt', line: 26, images: [join(dir, 'mllm_demo_data/2.jpg')] },
    ]);
    expect(examples[0]!.messages).toEqual([
      { role: 'user', content: '<image>Who are they?' },
      { role: 'assistant', content: "They're Kane and Gretzka from Bayern Munich." },
      { role: 'user', content: 'What are they doing?<image>' },
      { role: 'assistant', content: 'They are celebrating on the soccer field.' },
    ]);
    // As demonstrations: a turn per assistant message, the two identical images stored once.
    const demonstrations = await sftDemonstrations([file]);
    expect(demonstrations.trajectories.map((trajectory) => trajectory.turns.map((turn) => turn.action))).toEqual([
      ["They're Kane and Gretzka from Bayern Munich.", 'They are celebrating on the soccer field.'],
      ["He's Thomas Muller from Bayern Munich."],
    ]);
    expect(demonstrations.trajectories[0]!.turns.map((turn) => turn.observation.text)).toEqual(['<image>Who are they?', 'What are they doing?<image>']);
    expect(demonstrations.images.size).toBe(1);
  });

  it("ShareGPT with LLaMA-Factory's default tags, a system column, a tool call, and a mapping with tags of its own", async () => {
    const dir = folder('llama-factory-tags');
    const file = join(dir, 'tools.json');
    writeFileSync(
      file,
      pythonJson([
        {
          conversations: [
            { from: 'human', value: '<image>How far apart are the two dots?' },
            { from: 'function_call', value: '{"name": "measure", "arguments": {}}' },
            { from: 'observation', value: '42 px' },
            { from: 'gpt', value: '42 pixels.' },
          ],
          system: 'You measure.',
          images: ['mllm_demo_data/1.jpg'],
        },
      ]),
    );
    const custom = join(dir, 'custom.jsonl');
    writeFileSync(custom, `${JSON.stringify({ dialogue: [{ speaker: 'me', text: '<image>Colour?' }, { speaker: 'bot', text: 'grey' }], pictures: ['mllm_demo_data/2.jpg'] })}\n`);
    writeFileSync(
      join(dir, 'dataset_info.json'),
      pythonJson({
        tools_demo: { file_name: 'tools.json', formatting: 'sharegpt', columns: { messages: 'conversations', system: 'system', images: 'images' } },
        custom: { file_name: 'custom.jsonl', formatting: 'sharegpt', columns: { messages: 'dialogue', images: 'pictures' }, tags: { role_tag: 'speaker', content_tag: 'text', user_tag: 'me', assistant_tag: 'bot' } },
      }),
    );
    const [tools] = (await readSftExamples(file)).examples;
    expect(tools!.messages).toEqual([
      { role: 'system', content: 'You measure.' },
      { role: 'user', content: '<image>How far apart are the two dots?' },
      { role: 'assistant', content: '{"name": "measure", "arguments": {}}' },
      { role: 'user', content: '42 px' },
      { role: 'assistant', content: '42 pixels.' },
    ]);
    const [own] = (await readSftExamples(custom)).examples;
    expect(own).toMatchObject({ layout: 'sharegpt', line: 1, messages: [{ role: 'user', content: '<image>Colour?' }, { role: 'assistant', content: 'grey' }], images: [join(dir, 'mllm_demo_data/2.jpg')] });
  });

  it('alpaca: instruction and input as the user turn, history before it, system and history as dataset_info.json maps them', async () => {
    const dir = folder('llama-factory-tags');
    const file = join(dir, 'alpaca.json');
    writeFileSync(file, pythonJson([{ instruction: '<image>Name the colour.', input: 'One word.', output: 'grey', system: 'Be brief.', history: [['Ready?', 'Yes.']], images: ['mllm_demo_data/1.jpg'] }]));
    const plain = await readSftExamples(file);
    // Without a mapping, LLaMA-Factory's defaults: no system or history column.
    expect(plain.examples[0]!.messages).toEqual([{ role: 'user', content: '<image>Name the colour.\nOne word.' }, { role: 'assistant', content: 'grey' }]);
    writeFileSync(join(dir, 'dataset_info.json'), pythonJson({ alpaca_demo: { file_name: 'alpaca.json', columns: { prompt: 'instruction', query: 'input', response: 'output', system: 'system', history: 'history', images: 'images' } } }));
    const [mapped] = (await readSftExamples(file)).examples;
    expect(mapped).toMatchObject({ layout: 'alpaca', images: [join(dir, 'mllm_demo_data/1.jpg')] });
    expect(mapped!.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Ready?' },
      { role: 'assistant', content: 'Yes.' },
      { role: 'user', content: '<image>Name the colour.\nOne word.' },
      { role: 'assistant', content: 'grey' },
    ]);
    rmSync(join(dir, 'dataset_info.json'));
  });

  it("LLaVA's conversations (from human|gpt) with one image a record, and a text-only record", async () => {
    const dir = folder('llava');
    const file = join(dir, 'llava_custom.json');
    writeFileSync(
      file,
      pythonJson([
        {
          id: '000000033471',
          image: 'mllm_demo_data/1.jpg',
          conversations: [
            { from: 'human', value: '<image>\nWhat are the colors of the bus in the image?' },
            { from: 'gpt', value: 'The bus in the image is white and red.' },
            { from: 'human', value: 'What feature can be seen on the back of the bus?' },
            { from: 'gpt', value: 'The back of the bus features an advertisement.' },
          ],
        },
        { id: 'text-only', conversations: [{ from: 'human', value: 'Say hi.' }, { from: 'gpt', value: 'hi' }] },
      ]),
    );
    const { examples } = await readSftExamples(file);
    expect(examples.map(({ id, layout, line, images }) => ({ id, layout, line, images }))).toEqual([
      { id: '000000033471', layout: 'llava', line: 2, images: [join(dir, 'mllm_demo_data/1.jpg')] },
      { id: 'text-only', layout: 'sharegpt', line: 24, images: [] },
    ]);
    expect(examples[0]!.messages[0]).toEqual({ role: 'user', content: '<image>\nWhat are the colors of the bus in the image?' });
    const demonstrations = await sftDemonstrations([file]);
    expect(demonstrations.trajectories.map((trajectory) => trajectory.turns.length)).toEqual([2, 1]);
  });

  it('OpenAI chat messages: image_url parts (data URLs, paths in the folder) become <image> placeholders in order', async () => {
    const dir = folder('openai');
    const file = join(dir, 'train.jsonl');
    const lines = [
      {
        messages: [
          { role: 'system', content: 'You are an assistant that identifies uncommon cheeses.' },
          { role: 'user', content: 'What is this cheese?' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: png, detail: 'low' } }] },
          { role: 'assistant', content: 'Danbo' },
        ],
      },
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'Compare ' }, { type: 'image_url', image_url: { url: 'mllm_demo_data/1.jpg' } }, { type: 'text', text: ' with ' }, { type: 'image_url', image_url: 'mllm_demo_data/2.jpg' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Same.' }] }] },
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const { examples } = await readSftExamples(file);
    expect(examples.map(({ layout, images }) => ({ layout, images }))).toEqual([
      { layout: 'openai', images: [png] },
      { layout: 'openai', images: [join(dir, 'mllm_demo_data/1.jpg'), join(dir, 'mllm_demo_data/2.jpg')] },
    ]);
    expect(examples[1]!.messages).toEqual([{ role: 'user', content: 'Compare <image> with <image>' }, { role: 'assistant', content: 'Same.' }]);
    const demonstrations = await sftDemonstrations([file]);
    expect(demonstrations.trajectories[0]!.systemPrompt).toBe('You are an assistant that identifies uncommon cheeses.');
    expect(demonstrations.trajectories[0]!.turns[0]!.observation.text).toBe('What is this cheese?\n<image>');
    expect(demonstrations.images.size).toBe(2);
  });
});

describe('bad records', () => {
  const good = { id: 'ok', image: 'mllm_demo_data/1.jpg', conversations: [{ from: 'human', value: '<image>Q' }, { from: 'gpt', value: 'A' }] };
  const cases: Array<[string, unknown, string]> = [
    ['an image outside the folder', { ...good, image: '../outside.jpg' }, 'field "image[0]": expected an image file inside DIR (a path relative to the SFT file) or a data: URL, received "../outside.jpg", which is outside the folder'],
    ['an absolute path elsewhere', { ...good, image: join(scratch, 'outside.jpg') }, `field "image[0]": expected an image file inside DIR (a path relative to the SFT file) or a data: URL, received ${JSON.stringify(join(scratch, 'outside.jpg'))}, which is outside the folder`],
    ['a link out of the folder', { ...good, image: 'link.jpg' }, 'field "image[0]": expected an image file inside DIR (a path relative to the SFT file) or a data: URL, received "link.jpg", a link to outside the folder'],
    ['a URL to download', { ...good, image: 'https://example.com/a.jpg' }, 'field "image[0]": expected an image file inside DIR (a path relative to the SFT file) or a data: URL; nothing is downloaded, received "https://example.com/a.jpg"'],
    ['a missing image', { ...good, image: 'mllm_demo_data/9.jpg' }, 'field "image[0]": expected an image file inside DIR (a path relative to the SFT file) or a data: URL, received "mllm_demo_data/9.jpg", which does not exist'],
    ['a role LLaVA does not have', { ...good, conversations: [{ from: 'human', value: '<image>Q' }, { from: 'bot', value: 'A' }] }, 'field "conversations[1].from": expected human | gpt | observation | function_call | system, received "bot"'],
    ['more placeholders than images', { ...good, conversations: [{ from: 'human', value: '<image><image>Q' }, { from: 'gpt', value: 'A' }] }, 'field "image": expected one image per <image> placeholder in the messages (2), received 1 image'],
    ['no assistant turn', { ...good, conversations: [{ from: 'human', value: '<image>Q' }] }, 'field "conversations": expected at least one assistant message, received roles user'],
    ['no known layout', { prompt: 'Q', answer: 'A' }, "field \"(record)\": expected a record of a known SFT layout: Saccade's chain"],
  ];

  it.each(cases)('%s: an error naming the file, the line the record begins on and the field', async (_name, record, message) => {
    const dir = folder('bad');
    rmSync(join(dir, 'link.jpg'), { force: true });
    symlinkSync(join(scratch, 'outside.jpg'), join(dir, 'link.jpg'));
    const file = join(dir, 'records.json');
    writeFileSync(file, pythonJson([good, record]));
    const error = await readSftExamples(file).catch((caught: unknown) => caught);
    expect(GroundingFileError.isInstance(error)).toBe(true);
    // The second record begins after "[" and the first record's lines.
    const line = 2 + pythonJson(good).split('\n').length;
    expect((error as Error).message).toContain(`${file}:${line}: ${message.replace('DIR', dir)}`);
  });

  it('skipInvalid skips bad records and counts them (JSONL lines that are not JSON too); an image that does not decode is one of them', async () => {
    const dir = folder('bad');
    writeFileSync(join(dir, 'mllm_demo_data', 'broken.jpg'), 'not a jpeg');
    const file = join(dir, 'mixed.jsonl');
    writeFileSync(file, [JSON.stringify(good), '{"conversations": [', JSON.stringify({ ...good, image: '../outside.jpg' }), '', JSON.stringify({ ...good, image: 'mllm_demo_data/broken.jpg' }), JSON.stringify(good)].join('\n'));
    const strict = await sftDemonstrations([file]).catch((caught: unknown) => caught);
    expect((strict as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: field "\\(line\\)": expected a JSON object, received text that is not JSON`));
    const reported: string[] = [];
    const demonstrations = await sftDemonstrations([file], { skipInvalid: true, onInvalid: (error) => reported.push(`${error.line} ${error.field}`) });
    expect(demonstrations.trajectories).toHaveLength(2);
    expect(demonstrations.skipped).toBe(3);
    expect(reported).toEqual(['2 (line)', '3 image[0]', '5 images[0]']);
  });

  it('a JSON array that does not parse is one error with its line, skipped or not', async () => {
    const dir = folder('bad');
    const file = join(dir, 'torn.json');
    writeFileSync(file, `[\n  ${JSON.stringify(good)},\n  {"id": "torn",\n`);
    const error = await readSftExamples(file, { skipInvalid: true }).catch((caught: unknown) => caught);
    expect(GroundingFileError.isInstance(error)).toBe(true);
    expect((error as GroundingFileError).field).toBe('(file)');
    expect((error as Error).message).toMatch(/^.*torn\.json(:\d+)?: field "\(file\)": expected a JSON array of records \(or JSONL\), received text that is not JSON/);
  });
});
