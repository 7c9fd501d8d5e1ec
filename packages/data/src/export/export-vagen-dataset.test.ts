import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { afterAll, expect, it } from 'vitest';
import { exportVagenDataset } from './export-vagen-dataset';

const scratch = mkdtempSync(join(tmpdir(), 'vagen-export-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// VAGEN's scripts/examples/masked_grpo/frozenlake/env_config.yaml as the YAML parser gives it, sizes cut, and a Saccade id.
const CONFIG = {
  env1: { env_name: 'frozenlake', env_config: { render_mode: 'vision', prompt_format: 'free_think', use_state_reward: false, size: 4, p: 0.8, dim_room: [6, 6] }, train_size: 3, test_size: 2 },
  env2: { env_name: 'saccade/Sokoban-v1', env_config: { observation: 'text' }, train_size: 1, test_size: 0 },
};

it("writes the rows VAGEN's create_dataset writes for the YAML, read back field by field", async () => {
  const counts = await exportVagenDataset({ config: CONFIG, train: join(scratch, 'data/train.parquet'), test: join(scratch, 'data/test.parquet') });
  expect(counts).toEqual({ train: 4, test: 2 });
  const read = async (name: string) => parquetReadObjects({ file: await asyncBufferFromFile(join(scratch, 'data', name)) });
  const frozenlake = { render_mode: 'vision', prompt_format: 'free_think', use_state_reward: false, size: 4n, p: 0.8, dim_room: [6n, 6n], observation: null };
  // hyparquet reads a null list as undefined (pyarrow as None).
  const sokoban = { render_mode: null, prompt_format: null, use_state_reward: null, size: null, p: null, dim_room: undefined, observation: 'text' };
  const row = (split: string, env_name: string, env_config: object, seed: number) => ({ data_source: env_name, prompt: [{ role: 'user', content: '' }], extra_info: { split, env_name, env_config, seed: BigInt(seed) } });
  // Seeds: random.seed(0); random.sample(range(20000 + size), size), per split, as BaseEnvConfig.generate_seeds.
  expect(await read('train.parquet')).toEqual([
    row('train', 'frozenlake', frozenlake, 12623),
    row('train', 'frozenlake', frozenlake, 13781),
    row('train', 'frozenlake', frozenlake, 1326),
    row('train', 'saccade/Sokoban-v1', sokoban, 12623),
  ]);
  expect((await read('test.parquet')).map((entry) => (entry as { extra_info: { seed: bigint } }).extra_info.seed)).toEqual([12623n, 13781n]);
  // The schema pyarrow infers from the same dicts: struct fields in first-seen order, 3-level lists.
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(join(scratch, 'data/train.parquet')));
  const names = (node: ReturnType<typeof parquetSchema>): unknown => (node.children.length === 0 ? node.element.name : { [node.element.name]: node.children.map(names) });
  expect(names(parquetSchema(metadata))).toEqual({
    root: [
      'data_source',
      { prompt: [{ list: [{ element: ['role', 'content'] }] }] },
      { extra_info: ['split', 'env_name', { env_config: ['render_mode', 'prompt_format', 'use_state_reward', 'size', 'p', { dim_room: [{ list: ['element'] }] }, 'observation'] }, 'seed'] },
    ],
  });
});

it('refuses a YAML entry without env_name or with nested config values', async () => {
  await expect(exportVagenDataset({ config: { env1: { env_config: {} } }, train: join(scratch, 'a.parquet'), test: join(scratch, 'b.parquet') })).rejects.toThrow(/env1\.env_name/);
  await expect(exportVagenDataset({ config: { env1: { env_name: 'frozenlake', env_config: { desc: [['S', 'F']] } } }, train: join(scratch, 'a.parquet'), test: join(scratch, 'b.parquet') })).rejects.toThrow(/env_config\.desc/);
});
