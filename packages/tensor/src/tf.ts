// The union package registers every gradient and the chained tensor methods (x.sum(), …) on top
// of tfjs-core; tfjs-core alone has neither. Everything in Saccade uses this one namespace.
import * as tf from '@tensorflow/tfjs';

export { tf };
