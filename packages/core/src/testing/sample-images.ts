import type { ImageData } from '@saccade/spec';

const png = (base64: string, width: number, height: number): ImageData => ({ data: new Uint8Array(Buffer.from(base64, 'base64')), mediaType: 'image/png', width, height });

/**
 * A valid 1×1 red PNG (69 bytes): the smallest image an observation or a tool call can carry. Shared:
 * treat it as read-only.
 *
 * @example
 * expect(await runTool(myTool, { image: 0 }, { images: [RED_PIXEL_PNG] })).toMatchObject({ ok: true });
 */
export const RED_PIXEL_PNG: ImageData = png('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 1, 1);

/**
 * The two images {@link makeTaskFolder} writes, as the bytes it writes them: `red` is an 8×6
 * solid red PNG (`images/red.png`), `blue` a 4×4 solid blue one (`images/blue.png`). Both decode,
 * so an env that shows them to the agent can be tested against these bytes.
 */
export const TASK_IMAGES: { readonly red: ImageData; readonly blue: ImageData } = {
  red: png('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8CAFWEXpZMEADMoL9HRB309AAAAAElFTkSuQmCC', 8, 6),
  blue: png('iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWNgYPiPhIjiAACOsw/xX0IioQAAAABJRU5ErkJggg==', 4, 4),
};
