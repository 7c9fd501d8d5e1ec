export const specificationVersion = 'v1' as const;
