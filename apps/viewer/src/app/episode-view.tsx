import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ImageRef, StoredObservation, TrainedSequence, TrajectoryTraining, Turn } from '@saccade/spec';
import { api, type EpisodeSummary, type EpisodeTokens, type Trajectory } from './api';
import { turnFormatErrors } from './turn-format-errors';
import { number } from './format';
import { MarkedImage } from './marked-image';
import { callMarks, detectionMarks, toolResponses, type Mark, type ToolCallRecord } from './marks';
import { segmentationMasks, type MaskOverlay } from './masks';
import { responseParts } from './response-parts';

/** One episode: its facts, then each turn (observation, model output, tool calls, rewards), then its tokens. */
export function EpisodeView({ run, episodeId }: { run: string; episodeId: string }) {
  const [episode, setEpisode] = useState<{ trajectory: Trajectory; summary: EpisodeSummary } | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.episode(run, episodeId).then(setEpisode, (caught: Error) => setError(caught.message));
  }, [run, episodeId]);
  if (error !== undefined) return <p className="error">{error}</p>;
  if (episode === undefined) return <p className="muted">Loading {episodeId}…</p>;
  const { trajectory, summary } = episode;
  const original = trajectory.turns[0]?.observation.images[0];
  return (
    <article className="episode" data-testid="episode" data-episode={trajectory.id}>
      <h2>
        <span className={summary.success ? 'success' : 'failure'}>{summary.success ? '✓ success' : summary.failed ? '! error' : '✗ failure'}</span> {trajectory.envId} · seed {trajectory.seed ?? '–'} ·
        reward {number(trajectory.totalReward)} · {trajectory.turns.length} turns
      </h2>
      <p className="muted">
        {trajectory.id} · agent {trajectory.agentId}
        {trajectory.groupId !== undefined && ` · group ${trajectory.groupId}`}
        {trajectory.terminated && ' · terminated'}
        {trajectory.truncated && ' · truncated'}
      </p>
      {trajectory.training !== undefined && <TrainingFacts training={trajectory.training} />}
      {trajectory.error !== undefined && (
        <p className="error">
          {trajectory.error.name}: {trajectory.error.message}
        </p>
      )}
      {trajectory.systemPrompt !== undefined && (
        <details className="system-prompt">
          <summary>system prompt</summary>
          <pre>{trajectory.systemPrompt}</pre>
        </details>
      )}
      {trajectory.turns.map((turn, index) => (
        <TurnView
          key={index}
          run={run}
          turn={turn}
          index={index}
          next={trajectory.turns[index + 1]?.observation ?? trajectory.finalObservation}
          original={original}
        />
      ))}
      {trajectory.finalObservation !== undefined && trajectory.finalObservation.text.trim().length > 0 && (
        <section className="turn">
          <h3>final observation</h3>
          <ObservationView run={run} observation={trajectory.finalObservation} />
        </section>
      )}
      {trajectory.training !== undefined && trajectory.training.sequences.length > 0 ? (
        <TrainedTokens training={trajectory.training} />
      ) : (
        <TokenView run={run} episodeId={trajectory.id} />
      )}
    </article>
  );
}

function ObservationView({ run, observation, marks = [], masks = [], markOn, extra }: { run: string; observation: StoredObservation; marks?: Mark[]; masks?: MaskOverlay[]; markOn?: string; extra?: ReactNode }) {
  return (
    <div className="observation">
      <pre className="observation-text">{observation.text}</pre>
      <div className="images">
        {observation.images.map((image, index) => (
          <MarkedImage
            key={index}
            src={api.imageUrl(run, image)}
            marks={image.hash === markOn ? marks : []}
            masks={image.hash === markOn ? masks : []}
            width={image.width}
            height={image.height}
            caption={image.hash === markOn && marks.length + masks.length > 0 ? `image ${index + 1} with this turn's marks` : `image ${index + 1}`}
          />
        ))}
        {extra}
      </div>
    </div>
  );
}

function TurnView({ run, turn, index, next, original }: { run: string; turn: Turn; index: number; next: StoredObservation | undefined; original: ImageRef | undefined }) {
  const calls = Array.isArray(turn.info.toolCalls) ? (turn.info.toolCalls as ToolCallRecord[]) : [];
  const responses = calls.length > 0 && next !== undefined ? toolResponses(next.text) : [];
  const marks = [...callMarks(calls), ...detectionMarks(responses)];
  // Masks a tool returned (the segment tool's RLEs) are in the pixels of the image it worked on: the original.
  const responseText = calls.length > 0 ? (next?.text ?? '') : '';
  const masks = useMemo(() => segmentationMasks(toolResponses(responseText)), [responseText]);
  const parts = responseParts(turn.action);
  const formatErrors = turnFormatErrors(turn, parts);
  // Result images of a turn's calls come first in the next observation, in call order.
  let resultImage = 0;
  const crops = calls.flatMap((call, callIndex) => {
    const images = next?.images.slice(resultImage, resultImage + (call.images ?? 0)) ?? [];
    resultImage += call.images ?? 0;
    return images.map((image, imageIndex) => (
      <MarkedImage key={`${callIndex}-${imageIndex}`} src={api.imageUrl(run, image)} marks={[]} width={image.width} height={image.height} caption={`result of call ${callIndex + 1}`} />
    ));
  });
  // Tools work on the episode's original image: marks go on it where this turn shows it, with the crops beside it.
  const shownHere = original !== undefined && turn.observation.images.some((image) => image.hash === original.hash);
  return (
    <section className="turn" data-testid="turn" data-turn={index}>
      <h3>turn {index + 1}</h3>
      <ObservationView run={run} observation={turn.observation} marks={marks} masks={masks} markOn={original?.hash} extra={shownHere ? crops : undefined} />
      <div className="model-output" data-testid="model-output">
        <h4>model</h4>
        {parts.map((part, partIndex) => (
          <pre key={partIndex} className={`part ${part.kind}`} data-part={part.kind}>
            {part.kind !== 'text' && <span className="tag">{part.kind === 'unclosed' ? 'unclosed tag' : part.kind}</span>}
            {part.text}
          </pre>
        ))}
        {formatErrors.length > 0 && (
          <ul className="format-errors" data-testid="format-errors">
            {formatErrors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        )}
      </div>
      {calls.length > 0 && (
        <div className="tool-calls" data-testid="tool-calls">
          <h4>tool calls</h4>
          {!shownHere && (
            <div className="call-figures">
              {original !== undefined && marks.length + masks.length > 0 && (
                <MarkedImage src={api.imageUrl(run, original)} marks={marks} masks={masks} width={original.width} height={original.height} caption="source with this turn's marks" />
              )}
              {crops}
            </div>
          )}
          <table className="calls">
            <tbody>
              {calls.map((call, callIndex) => (
                <tr key={callIndex} className={call.ok ? 'ok' : 'failed'}>
                  <td>{callIndex + 1}</td>
                  <td className="call-name">{call.name ?? '(unreadable)'}</td>
                  <td>
                    <code>{JSON.stringify(call.arguments ?? {})}</code>
                  </td>
                  <td>{call.ok ? 'ok' : `${call.failure ?? 'failed'}: ${call.error ?? ''}`}</td>
                  <td className="number">{call.durationMs !== undefined ? `${number(call.durationMs)} ms` : ''}</td>
                  <td>
                    <pre className="tool-result">{responses[callIndex] ?? ''}</pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="rewards">
        <h4>reward {number(turn.reward)}</h4>
        {Object.keys(turn.rewardTerms).length > 0 && (
          <table className="reward-terms">
            <tbody>
              {Object.entries(turn.rewardTerms).map(([name, value]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td className="number">{number(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted">
          agent {number(turn.timing.agentMs)} ms · env {number(turn.timing.envMs)} ms{turn.terminated && ' · terminated'}
          {turn.truncated && ' · truncated'}
        </p>
      </div>
    </section>
  );
}

/** The episode as the trainers' token sequence, coloured by loss mask and advantage mask. */
function TokenView({ run, episodeId }: { run: string; episodeId: string }) {
  const [tokens, setTokens] = useState<EpisodeTokens | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open || tokens !== undefined) return;
    api.tokens(run, episodeId).then(setTokens, (caught: Error) => setError(caught.message));
  }, [open, tokens, run, episodeId]);
  return (
    <details className="tokens" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="tokens">
      <summary>token sequence (loss and advantage masks)</summary>
      {error !== undefined && <p className="error">{error}</p>}
      {tokens !== undefined && (
        <>
          <p className="muted">
            {tokens.tokenizer}: {tokens.totalTokens} tokens, {tokens.lossTokens} with loss.{' '}
            {tokens.advantageValue !== undefined ? `advantage ${number(tokens.advantageValue)} (${tokens.advantageSource})` : 'no group: no advantage value'}.{' '}
            <span className="token loss advantage">loss + advantage</span> <span className="token advantage">advantage only</span> <span className="token">context</span>{' '}
            <span className="token reward">reward</span>
          </p>
          <div className="token-text">
            {tokens.tokens.map((token, index) => (
              <span
                key={index}
                className={`token${token.loss ? ' loss' : ''}${token.advantage ? ' advantage' : ''}${token.image !== undefined ? ' image' : ''}${token.reward !== undefined ? ' reward' : ''}`}
                title={`turn ${token.turn}${token.loss ? ' · loss' : ''}${token.advantage ? ` · advantage${tokens.advantageValue !== undefined ? ` ${number(tokens.advantageValue)}` : ''}` : ''}${token.reward !== undefined ? ` · reward ${number(token.reward)}` : ''}`}
              >
                {token.text}
                {token.reward !== undefined && <sup>{number(token.reward)}</sup>}
              </span>
            ))}
          </div>
        </>
      )}
    </details>
  );
}

const PHASE_NAMES: Record<TrajectoryTraining['phase'], string> = { grpo: 'GRPO', ppo: 'PPO', eval: 'evaluation' };

/** What the trainer made of a stored training episode: phase, step, score, advantage, trained or why not. */
function TrainingFacts({ training }: { training: TrajectoryTraining }) {
  return (
    <p className="training-facts" data-testid="training-facts">
      {PHASE_NAMES[training.phase]} · step {training.step}
      {training.score !== undefined && ` · score ${number(training.score)}`}
      {training.advantage !== undefined && ` · advantage ${number(training.advantage)}`}
      {training.trained === true && ' · trained on'}
      {training.trained === false && ` · not trained on${training.leftOut !== undefined ? ` (${training.leftOut})` : ''}`}
    </p>
  );
}

/**
 * The sequences the trainer built from the episode, as it stored them: each trained token with its
 * loss and advantage masks, the advantage it was trained with, the sampler's log-prob and (PPO) the
 * critic's value and the return; context runs and images in between.
 */
function TrainedTokens({ training }: { training: TrajectoryTraining }) {
  return (
    <details className="tokens" open data-testid="trained-tokens">
      <summary>
        trained sequences ({training.sequences.length}): loss and advantage masks, advantages, as the {PHASE_NAMES[training.phase]} step used them
      </summary>
      <p className="muted">
        <span className="token loss advantage">loss + advantage</span> <span className="token advantage">advantage only</span> <span className="token">context</span>; a token&apos;s title
        gives its advantage, the sampler&apos;s log-prob{training.phase === 'ppo' ? ', the value and the return' : ''}.
      </p>
      {training.sequences.map((sequence, index) => (
        <SequenceView key={index} sequence={sequence} index={index} />
      ))}
    </details>
  );
}

function SequenceView({ sequence, index }: { sequence: TrainedSequence; index: number }) {
  const total = sequence.tokens.reduce((sum, count) => sum + count, 0);
  const lossTokens = sequence.loss.reduce((sum, value) => sum + value, 0);
  const images = new Set(sequence.imagePieces);
  return (
    <div className="trained-sequence" data-testid="trained-sequence">
      <h4>
        sequence {index + 1}: {total} tokens, {lossTokens} with loss{sequence.truncatedTokens > 0 && `, ${sequence.truncatedTokens} cut on the left to fit the context`}
      </h4>
      <div className="token-text">
        {sequence.pieces.map((piece, position) => {
          const masked = sequence.loss[position] === 1 || sequence.advantageMask[position] === 1;
          const title = masked
            ? [
                `turn ${sequence.turns[position]}`,
                sequence.loss[position] === 1 ? 'loss' : 'no loss',
                `advantage ${number(sequence.advantages[position] ?? 0)}`,
                ...(sequence.logprobs !== undefined && sequence.loss[position] === 1 ? [`log-prob ${number(sequence.logprobs[position] ?? 0)}`] : []),
                ...(sequence.values !== undefined ? [`value ${number(sequence.values[position] ?? 0)}`] : []),
                ...(sequence.returns !== undefined ? [`return ${number(sequence.returns[position] ?? 0)}`] : []),
              ].join(' · ')
            : `turn ${sequence.turns[position]} · ${sequence.tokens[position]} token(s) of context`;
          const advantage = sequence.advantages[position] ?? 0;
          return (
            <span
              key={position}
              className={`token${sequence.loss[position] === 1 ? ' loss' : ''}${sequence.advantageMask[position] === 1 ? ' advantage' : ''}${images.has(position) ? ' image' : ''}${masked ? (advantage > 0 ? ' positive' : advantage < 0 ? ' negative' : '') : ''}`}
              title={title}
              data-advantage={masked ? advantage : undefined}
            >
              {piece}
            </span>
          );
        })}
      </div>
    </div>
  );
}
