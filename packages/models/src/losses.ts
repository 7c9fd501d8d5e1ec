/**
 * Entry for worker threads (`@saccade/models/losses`): the shard losses DataParallel can name.
 */
export { sftShardLoss } from './train-step';
