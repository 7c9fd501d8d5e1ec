// The grounded env's test scenes (a small coloured square on a white image), shared so that data
// generation is tested on the very tasks the env is.
export { squareScene, squareTask } from '../../envs/grounded/test/scenes';
