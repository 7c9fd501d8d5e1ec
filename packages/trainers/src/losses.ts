/** Entry for data-parallel worker threads (`@saccade/trainers/losses`): the shard losses they can name. */
export { policyShardLoss } from './losses/policy-loss';
export { ppoShardLoss } from './losses/ppo-loss';
export { sftShardLoss } from './losses/sft-loss';
