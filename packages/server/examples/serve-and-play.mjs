// Starts the env service and the tool service on loopback, plays one FrozenLake episode through
// VAGEN's batch protocol and one through the remote env client, then one zoom call through the
// verl-tool protocol. Run after the build:
//   node packages/server/examples/serve-and-play.mjs
import { FROZEN_LAKE_ID, FrozenLakeEnv, registerGridEnvs } from '@saccade/env-grid';
import { zoomTool } from '@saccade/tool-zoom';
import sharp from 'sharp';
import { createEnvServer, createRemoteEnv, createToolServer } from '../dist/index.js';

const post = async (url, body) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

// The caller registers the envs and names VAGEN's env names; the service names none itself.
registerGridEnvs();
const envServer = createEnvServer({ logger: false, vagenEnvNames: { frozenlake: FROZEN_LAKE_ID } });
const envUrl = await envServer.listen(0);
console.log(`env service at ${envUrl}`);

// 1. VAGEN's protocol, as VAGEN's BatchEnvClient sends it. An in-process twin supplies the oracle's answers.
const twin = new FrozenLakeEnv({ maxSolutionSteps: 9 });
await twin.reset({ seed: 42 });
await post(`${envUrl}/environments`, { ids2configs: { 'lake-0': { env_name: 'frozenlake', env_config: { render_mode: 'vision', max_actions_per_step: 3 }, seed: 42 } } });
const { results: reset } = await post(`${envUrl}/batch/reset`, { ids2seeds: { 'lake-0': 42 } });
console.log('reset obs_str:', JSON.stringify(reset['lake-0'][0].obs_str.slice(0, 60)), `+ ${reset['lake-0'][0].multi_modal_data['<image>'].length} image`);
for (let done = false, turn = 1; !done; turn++) {
  const action = twin.oracleResponse();
  await twin.step(action);
  const { results } = await post(`${envUrl}/batch/step`, { ids2actions: { 'lake-0': action } });
  const [, reward, isDone, info] = results['lake-0'];
  console.log(`turn ${turn}: ${action} → reward ${reward}, done ${isDone}, metrics ${JSON.stringify(info.metrics)}`);
  done = isDone;
}
await post(`${envUrl}/batch/close`, { env_ids: ['lake-0'] });

// 2. The remote env client: an Env whose calls go to the server.
const remote = await createRemoteEnv({ urls: [envUrl], envId: 'saccade/FrozenLake-v1', options: { observation: 'text' } });
const { observation } = await remote.reset({ seed: 1 });
console.log(`remote env ${remote.id} on ${remote.url}:\n${observation.text}`);
await remote.close();
await envServer.close();

// 3. The tool service: one zoom on a 200 × 100 image, then finish.
const toolServer = createToolServer({ logger: false, tools: [zoomTool] });
const toolUrl = await toolServer.listen(0);
const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366ff' } }).png().toBuffer();
const zoomed = await post(`${toolUrl}/get_observation`, {
  trajectory_ids: ['t-1'],
  actions: ['<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [10, 10, 90, 90]}}</tool_call>'],
  extra_fields: [{ images: [`data:image/png;base64,${png.toString('base64')}`] }],
  finish: [false],
  is_last_step: [false],
});
console.log('tool observation:', zoomed.observations[0].obs, `(image ${zoomed.observations[0].image.length} characters), valid ${zoomed.valids[0]}`);
await post(`${toolUrl}/get_observation`, { trajectory_ids: ['t-1'], actions: [''], finish: [true], is_last_step: [true] });
await toolServer.close();
