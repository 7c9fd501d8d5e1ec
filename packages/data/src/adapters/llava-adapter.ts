import { dirname } from 'node:path';
import { inferAnswerType } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, TaskDraft } from '../dataset-adapter';
import { imageAt } from '../images';
import { jsonOrJsonlRecords } from '../readers/json-or-jsonl-records';

/**
 * LLaVA conversations (a JSON array such as `llava_v1_5_mix665k.json`, or JSONL streamed):
 * `{id, image | images, conversations: [{from: "human", value: "<image>\nQ"}, {from: "gpt", value: A}, …]}`.
 * Each human turn and the gpt turn after it become one task (`<id>-<n>` when there are several);
 * `<image>` placeholders stay in the question. `--dataset-name` (default `LLaVA`) and
 * `--task-family` (default `other`) name them.
 */
export const llavaAdapter: DatasetAdapter = {
  name: 'LLaVA',
  aliases: [],
  taskFamily: 'other',
  input: 'a JSON array (or JSONL) of `{id, image | images, conversations: [{from: "human", value}, {from: "gpt", value}, …]}`',
  images: 'the image folder (default: the file\'s folder): `image` paths are relative to it',
  layout: { paths: [] },
  defaultImages: (input) => dirname(input),
  async *read(context) {
    yield* convertRecords(jsonOrJsonlRecords(context.input), (fields) => {
      const id = String(fields.scalar('id', 'the sample id'));
      const images = fields.has('images')
        ? fields.stringArray('images', 'an image path').map((path, index) => imageAt(fields, `images[${index}]`, context.images, path))
        : fields.has('image')
          ? [imageAt(fields, 'image', context.images, fields.string('image', 'the image path'))]
          : [];
      const turns = fields.objects('conversations', 'the turns', { min: 2 });
      const pairs: { question: string; answer: string }[] = [];
      for (let index = 0; index < turns.length; index += 2) {
        const human = turns[index]!;
        const gpt = turns[index + 1];
        if (human.get('from') !== 'human') human.fail('from', '"human" (turns alternate human, gpt)');
        if (gpt === undefined) return human.fail('value', 'a human turn followed by a gpt turn', '(no gpt turn after it)');
        if (gpt.get('from') !== 'gpt') gpt.fail('from', '"gpt" (turns alternate human, gpt)');
        pairs.push({ question: human.string('value', 'the question'), answer: gpt.string('value', 'the answer').trim() });
      }
      return pairs.map(
        ({ question, answer }, index): TaskDraft => ({
          id: pairs.length === 1 ? id : `${id}-${index + 1}`,
          dataset: context.datasetName ?? 'LLaVA',
          taskFamily: context.taskFamily ?? 'other',
          images,
          question,
          answer,
          answerType: inferAnswerType(answer),
          ...(pairs.length > 1 ? { metadata: { turn: index + 1, turns: pairs.length } } : {}),
        }),
      );
    });
  },
};
