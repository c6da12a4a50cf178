/** Moved to src/shapes/calls.ts, shared with the readers of recorded and persisted calls. */
export { callsFromValue, looksLikeCall, type RawCall, type ShapeResult } from '../shapes/calls.js';
