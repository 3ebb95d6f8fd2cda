// Test helpers of @little-stack/local-world (the `/test` subpath; needs vitest).
export { describeWorldConformance, type EventDamage, type WorldConformanceOptions } from "./world-conformance.js";
