import type { ImageRef } from '@saccade/spec';
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { formatNumber, truncate } from '../format';
import { highlightText, type HighlightKind } from '../highlight';
import type { EpisodeView } from '../run-state';
import { renderThumbnail, type Thumbnail } from '../thumbnail';

/** Reads an image of a stored trajectory (`images/<hash>.<ext>` in a run folder). */
export type ImageLoader = (image: ImageRef) => Promise<Uint8Array | undefined>;

/** `blocks`: coloured half blocks; `text`: a one-line description (no colour terminal). */
export type ImageMode = 'blocks' | 'text';

export interface EpisodePanelProps {
  episodes: readonly EpisodeView[];
  /** Index into `episodes` of the one shown. */
  selected: number;
  width: number;
  height: number;
  loadImage?: ImageLoader;
  imageMode?: ImageMode;
}

const KIND_STYLES: Record<HighlightKind, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  text: {},
  'tool-call': { color: 'yellow', bold: true },
  'tool-result': { color: 'green' },
  answer: { color: 'cyan', bold: true },
  think: { dimColor: true },
};

const THUMBNAIL_COLUMNS = 16;
const THUMBNAIL_ROWS = 8;

/** The selected recent episode: its question or state, image, the model's turns and rewards. */
export function EpisodePanel({ episodes, selected, width, height, loadImage, imageMode = 'blocks' }: EpisodePanelProps) {
  const episode = episodes[selected];
  const image = episode?.promptImages[0] ?? episode?.turns.find((turn) => turn.images.length > 0)?.images[0];
  const thumbnail = useThumbnail(imageMode === 'blocks' ? image : undefined, loadImage);
  if (!episode) {
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text bold underline>episodes</Text>
        <Text dimColor>no episodes yet</Text>
      </Box>
    );
  }
  const result = episode.done
    ? `reward ${formatNumber(episode.totalReward)}${episode.success === undefined ? '' : episode.success ? ' ✓' : ' ✗'}`
    : 'running';
  const thumbnailWidth = thumbnail && thumbnail !== 'missing' ? (thumbnail[0]?.length ?? 0) + 1 : 0;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Box flexShrink={0}>
      <Text wrap="truncate">
        <Text bold underline>episode {selected + 1}/{episodes.length}</Text>
        <Text dimColor> ←/→ · </Text>
        <Text>{episode.envId ?? '?'}</Text>
        {episode.seed === undefined || episode.seed === null ? null : <Text dimColor> seed {episode.seed}</Text>}
        {episode.step === undefined ? null : <Text dimColor> · step {episode.step}</Text>}
        <Text> · </Text>
        <Text color={episode.success === false ? 'red' : episode.success ? 'green' : undefined}>{result}</Text>
      </Text>
      </Box>
      {image || episode.prompt !== undefined ? (
        <Box flexDirection="row" flexShrink={0}>
          {image && imageMode === 'blocks' && thumbnail && thumbnail !== 'missing' ? <ThumbnailView thumbnail={thumbnail} /> : null}
          <Box flexDirection="column" width={Math.max(1, width - thumbnailWidth)} marginLeft={thumbnailWidth > 0 ? 1 : 0}>
            {image && (imageMode === 'text' || thumbnail === 'missing' || thumbnail === undefined) ? <Text dimColor wrap="truncate">{describeImage(image)}</Text> : null}
            {episode.prompt !== undefined ? <Highlighted text={episode.prompt.trim()} /> : null}
          </Box>
        </Box>
      ) : null}
      {episode.turns.map((turn, index) => {
        // What came back after this turn: the next turn's observation, or the episode's last one.
        const reply = index + 1 < episode.turns.length ? episode.turns[index + 1]?.observation : episode.finalObservation;
        return (
          <Box key={turn.turn} flexDirection="column" flexShrink={0}>
            <Text>
              <Text bold>turn {turn.turn + 1} ▸ </Text>
              <Highlighted text={(turn.action ?? '').trim() || '(no action recorded)'} />
            </Text>
            <Text wrap="truncate">
              <Text dimColor>{'  reward '}</Text>
              <Text bold>{formatNumber(turn.reward)}</Text>
              {Object.keys(turn.rewardTerms).length > 0 ? <Text dimColor>{` = ${rewardTerms(turn.rewardTerms)}`}</Text> : null}
            </Text>
            {reply !== undefined && reply.trim() !== '' ? (
              <Text>
                <Text dimColor>{'  ◂ '}</Text>
                <Highlighted text={truncate(reply.trim(), width * 3)} dim />
              </Text>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
}

function Highlighted({ text, dim = false }: { text: string; dim?: boolean }) {
  return (
    <Text>
      {highlightText(text).map((segment, index) => {
        const style = KIND_STYLES[segment.kind];
        return (
          <Text key={index} color={style.color} bold={style.bold} dimColor={style.dimColor ?? (dim && segment.kind === 'text')}>
            {segment.text}
          </Text>
        );
      })}
    </Text>
  );
}

function ThumbnailView({ thumbnail }: { thumbnail: Thumbnail }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {thumbnail.map((row, y) => (
        <Text key={y}>
          {row.map((cell, x) => (
            <Text key={x} color={cell.top} backgroundColor={cell.bottom}>
              ▀
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

function describeImage(image: ImageRef): string {
  const size = image.width !== undefined && image.height !== undefined ? `${image.width}×${image.height} ` : '';
  return `[image ${size}${image.mediaType.replace('image/', '')} ${image.hash.slice(0, 8)}]`;
}

function rewardTerms(terms: Record<string, number>): string {
  return Object.entries(terms)
    .map(([name, value]) => `${name} ${formatNumber(value)}`)
    .join(' + ');
}

// Thumbnails by image hash: decoding is the slow part, and the same image comes back as the user
// steps through episodes.
// Per loader: another run folder may hold other bytes under the same name.
const caches = new WeakMap<ImageLoader, { done: Map<string, Thumbnail | 'missing'>; pending: Map<string, Promise<Thumbnail | 'missing'>> }>();

function cacheOf(loadImage: ImageLoader) {
  let cache = caches.get(loadImage);
  if (!cache) caches.set(loadImage, (cache = { done: new Map(), pending: new Map() }));
  return cache;
}

async function loadThumbnail(image: ImageRef, loadImage: ImageLoader): Promise<Thumbnail | 'missing'> {
  try {
    const bytes = await loadImage(image);
    return bytes ? await renderThumbnail(bytes, { columns: THUMBNAIL_COLUMNS, rows: THUMBNAIL_ROWS }) : 'missing';
  } catch {
    // An unreadable or corrupt image falls back to its text description.
    return 'missing';
  }
}

function useThumbnail(image: ImageRef | undefined, loadImage: ImageLoader | undefined): Thumbnail | 'missing' | undefined {
  const key = image?.hash;
  const [loaded, setLoaded] = useState<{ key: string; thumbnail: Thumbnail | 'missing' } | undefined>(undefined);
  useEffect(() => {
    if (!image || !key || !loadImage) return;
    const cache = cacheOf(loadImage);
    if (cache.done.has(key)) return;
    let live = true;
    let load = cache.pending.get(key);
    if (!load) {
      load = loadThumbnail(image, loadImage).then((thumbnail) => {
        cache.done.set(key, thumbnail);
        cache.pending.delete(key);
        return thumbnail;
      });
      cache.pending.set(key, load);
    }
    void load.then((thumbnail) => {
      if (live) setLoaded({ key, thumbnail });
    });
    return () => {
      live = false;
    };
    // The image object changes with every state update; its hash is what matters.
  }, [key, loadImage]);
  if (!key) return undefined;
  if (!loadImage) return 'missing';
  return cacheOf(loadImage).done.get(key) ?? (loaded?.key === key ? loaded.thumbnail : undefined);
}
