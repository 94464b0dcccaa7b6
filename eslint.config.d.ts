// Lets the layer test read the layer list the lint rule is built from.
export const LAYERS: string[][];
declare const config: unknown;
export default config;
