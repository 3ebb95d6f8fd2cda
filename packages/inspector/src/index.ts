// Public surface of @little-stack/inspector: an explicit list of named exports.
export { defaultInspectorPort, startInspector, type InspectorOptions, type RunningInspector } from "./server/start-inspector.js";
export { createInspectorApp, livePollMs } from "./server/inspector-app.js";
export { InspectorError } from "./server/inspector-error.js";
export type { RunRow, RunView } from "./server/run-views.js";
export type { AttemptView, DiffPart, ModelCallView, StepView, ToolCallView } from "./server/step-view.js";
export type { PlanGraph, PlanGraphEdge, PlanGraphEdgeKind, PlanGraphNode } from "./server/plan-graph.js";
export type { TimelineBar, TimelineRow } from "./server/step-timeline.js";
