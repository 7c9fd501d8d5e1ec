/** What a grid env shows the agent: the rendered image, the text grid, or both. */
export type ObservationMode = 'vision' | 'text' | 'both';
