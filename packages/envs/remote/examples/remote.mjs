// Plays two FrozenLake episodes on a server of VAGEN's remote env protocol: start one first
// (`saccade serve env --port 8000`, or VAGEN's own GymService), then, after building the package:
//   node examples/remote.mjs [http://127.0.0.1:8000]
import { VagenRemoteEnv } from '../dist/index.js';

const env = new VagenRemoteEnv({
  baseUrls: process.argv[2] ?? 'http://127.0.0.1:8000',
  envConfig: { env_name: 'frozenlake', render_mode: 'text', size: 4 },
  timeout: 30,
  retries: 2,
});
for (const seed of [0, 1]) {
  const { observation } = await env.reset({ seed });
  console.log(`seed ${seed}, session ${env.session.sessionId} on ${env.session.url}\n${observation.text}`);
  for (const move of ['Down', 'Right', 'Down']) {
    const { observation: next, reward, terminated, info } = await env.step(`<think>Try ${move}.</think><answer>${move}</answer>`);
    console.log(`${move} → reward ${reward}, success ${info.metrics.success}\n${next.text}`);
    if (terminated) break;
  }
}
await env.close();
