import type { WorkflowDefinition, WorkflowInput, WorkflowOutput } from "@little-stack/authoring";
import { RunEventStream, type RunEvent, type RunResult } from "@little-stack/runtime";
import { runOrchestration, type OrchestrationResult, type RunOrchestrationOptions } from "../orchestration/run-orchestration.js";
import { runWorkflow, type RunWorkflowOptions } from "../run/run-workflow.js";

/** How many events a stream holds for a consumer that is behind (see `RunEventStream`). */
export type StreamOptions = { readonly bufferSize?: number };

/** A run as it happens: its events, and its outcome. */
export type WorkflowStream<T> = {
  /**
   * Every event as it is committed, in commit order per run (a resumed run's record first,
   * `replayed: true`), with live model text deltas (`ephemeral: true`). Iterate it once; it ends
   * after the run's last event, and throws the run's error after its last event when the run fails.
   * Bounded: past `bufferSize` held events, committed events are read back from the world's log
   * when the consumer catches up (never dropped) and deltas are dropped (counted in `droppedDeltas`).
   */
  readonly events: AsyncIterable<RunEvent>;
  /** The run's result (rejects as `runWorkflow` would). Awaiting it without reading `events` is fine. */
  readonly result: Promise<T>;
  /** Text deltas dropped so far because the consumer was behind. */
  droppedDeltas(): number;
};

/**
 * `runWorkflow` with its events as an async iterable. The run starts at once and goes at its own
 * pace: a slow or absent consumer never slows it down, and memory stays bounded.
 */
export function streamWorkflow<W extends WorkflowDefinition<any, any>>(
  workflow: W,
  input: WorkflowInput<W>,
  options: RunWorkflowOptions & StreamOptions,
): WorkflowStream<RunResult<WorkflowOutput<W>>> {
  const { bufferSize, onEvent, ...runOptions } = options;
  const stream = new RunEventStream({ source: options.world, ...(bufferSize === undefined ? {} : { bufferSize }) });
  const result = runWorkflow(workflow, input, { ...runOptions, onEvent: tee(stream, onEvent) });
  return settle(stream, result);
}

/** `runOrchestration` with the events of the pipeline run and of every plan and sub-run it starts. */
export function streamOrchestration(options: RunOrchestrationOptions & StreamOptions): WorkflowStream<OrchestrationResult> {
  const { bufferSize, onEvent, ...runOptions } = options;
  const stream = new RunEventStream({ source: options.world, ...(bufferSize === undefined ? {} : { bufferSize }) });
  const result = runOrchestration({ ...runOptions, onEvent: tee(stream, onEvent) });
  return settle(stream, result);
}

function tee(stream: RunEventStream, onEvent: ((event: RunEvent) => void) | undefined): (event: RunEvent) => void {
  if (onEvent === undefined) return stream.push;
  return (event) => {
    stream.push(event);
    onEvent(event);
  };
}

function settle<T>(stream: RunEventStream, result: Promise<T>): WorkflowStream<T> {
  result.then(
    () => stream.end(),
    (error: unknown) => stream.end({ error }),
  );
  // The failure is the caller's through `result`; a consumer that only iterates sees it there too.
  result.catch(() => undefined);
  return { events: stream, result, droppedDeltas: () => stream.droppedDeltas };
}
