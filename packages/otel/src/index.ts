// Public surface of @little-stack/otel: an explicit list of named exports.
export { createRunTracer, type RunTracer, type RunTracerOptions } from "./run-tracer.js";
export { otlpHttpTracing, type OtlpHttpTracing, type OtlpHttpTracingOptions } from "./otlp-http-tracing.js";
export { plannedIdGenerator, spanIdFor, traceIdFor, type PlannedSpanIds } from "./span-ids.js";
export { OtelSetupError } from "./otel-setup-error.js";
