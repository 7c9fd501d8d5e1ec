// One env service process for the bench (what `saccade serve env` runs): prints its URL.
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { createEnvServer } from '../dist/index.js';

registerGridEnvs();
const server = createEnvServer({ logger: false, vagenEnvNames: { frozenlake: FROZEN_LAKE_ID } });
console.log(await server.listen(0));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
