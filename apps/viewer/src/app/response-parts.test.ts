import { describe, expect, it } from 'vitest';
import { callMarks, detectionMarks, toolResponses } from './marks';
import { responseParts } from './response-parts';

describe('responseParts', () => {
  it('splits a response into think, tool call, answer and the text between', () => {
    expect(responseParts('<think>look</think>\n<tool_call>{"name": "zoom"}</tool_call> then <answer>red</answer>')).toEqual([
      { kind: 'think', text: 'look' },
      { kind: 'tool_call', text: '{"name": "zoom"}' },
      { kind: 'text', text: ' then ' },
      { kind: 'answer', text: 'red' },
    ]);
  });

  it('marks a tag that never closes', () => {
    expect(responseParts('<think>cut off here')).toEqual([{ kind: 'unclosed', text: '<think>cut off here' }]);
  });
});

describe('marks', () => {
  it('reads boxes and points from tool call arguments and detections from tool responses', () => {
    expect(
      callMarks([
        { name: 'image_zoom_in_tool', arguments: { bbox_2d: [10, 20, 110, 220], label: 'car' }, ok: true },
        { name: 'search_coordinate', arguments: { coordinate: [5, 6] }, ok: true },
        { name: 'image_zoom_in_tool', arguments: { bbox_2d: [1, 2, 3] }, ok: false },
      ]),
    ).toEqual([
      { kind: 'box', x1: 10, y1: 20, x2: 110, y2: 220, label: '1. image_zoom_in_tool: car', call: 0 },
      { kind: 'point', x: 5, y: 6, label: '2. search_coordinate', call: 1 },
    ]);
    const responses = toolResponses('<tool_response>\n{"detections": [{"bbox": [1, 2, 30, 40], "label": "red circle"}], "count": 1}\n</tool_response>\n<tool_response>\nZoomed.\n</tool_response>');
    expect(responses).toEqual(['{"detections": [{"bbox": [1, 2, 30, 40], "label": "red circle"}], "count": 1}', 'Zoomed.']);
    expect(detectionMarks(responses)).toEqual([{ kind: 'box', x1: 1, y1: 2, x2: 30, y2: 40, label: 'red circle', call: 0 }]);
  });
});
