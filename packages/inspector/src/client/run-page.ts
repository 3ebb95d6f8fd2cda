/// <reference lib="dom" />
import { useEffect, useState } from "preact/hooks";
import type { RunRow, RunView } from "../server/run-views.js";
import { getJson, runPath, stepPath } from "./api.js";
import { dollars, duration, percent, pretty, time } from "./format.js";
import { html } from "./html.js";
import { PlanGraphView } from "./plan-graph-view.js";
import { TimelineView } from "./timeline-view.js";

/**
 * A run: its facts, the plan graph beside the timeline, the steps, a pipeline's sub-runs. While
 * the run goes on, the page listens to the server's event stream and reloads its data whenever
 * new events were committed — new steps appear without a reload.
 */
export function RunPage(props: { readonly runId: string }) {
  const [view, setView] = useState<RunView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [live, setLive] = useState(false);
  useEffect(() => {
    let closed = false;
    let source: EventSource | undefined;
    const load = () =>
      getJson<RunView>(`/api/runs/${encodeURIComponent(props.runId)}`).then(
        (next) => {
          if (closed) return next;
          setView(next);
          return next;
        },
        (failure: unknown) => {
          if (!closed) setError(String(failure));
          return undefined;
        },
      );
    void load().then((first) => {
      if (closed || first === undefined || (first.status !== "running" && first.status !== "not_started")) return;
      source = new EventSource(`/api/runs/${encodeURIComponent(props.runId)}/live?after=${first.lastSequence}`);
      setLive(true);
      source.addEventListener("events", () => void load());
      source.addEventListener("ended", () => {
        source?.close();
        setLive(false);
        void load();
      });
    });
    return () => {
      closed = true;
      source?.close();
    };
  }, [props.runId]);
  if (error !== undefined) return html`<div class="error">${error}</div>`;
  if (view === undefined) return html`<p class="loading">Loading run…</p>`;
  const latestStatus = new Map<string, string>();
  for (const step of view.steps) latestStatus.set(step.stepId, step.status);
  const cached = view.usage.inputTokens === 0 ? null : view.usage.cachedInputTokens / view.usage.inputTokens;
  return html`
    <h1>${view.kind === "pipeline" ? "Pipeline" : view.kind === "plan" ? "Plan" : "Run"} ${view.runId} <span class=${`badge ${view.status}`}>${view.status}</span> ${live ? html`<span class="live">● live</span>` : ""}</h1>
    <div class="facts">
      <span>workflow <b>${view.workflow ?? "–"}</b></span>
      <span>started <b>${time(view.startedAt)}</b></span>
      <span>duration <b>${duration(view.durationMs)}</b></span>
      <span>steps <b>${view.stepsCompleted}/${view.stepsTotal}</b></span>
      <span>tokens in <b>${view.usage.inputTokens}</b> (cached ${percent(cached)}) out <b>${view.usage.outputTokens}</b></span>
      <span>cost <b>${dollars(view.usage.costUsd)}</b></span>
      <span>events <b>${view.eventCount}</b></span>
      ${view.parentRunId === null ? "" : html`<span>in <a href=${runPath(view.parentRunId)}>${view.parentRunId}</a></span>`}
    </div>
    ${view.error === null ? "" : html`<div class="error" role="alert"><b>${view.error.causeCode}</b>${view.error.failedStepPath === undefined ? "" : html` at <a href=${stepPath(view.runId, view.error.failedStepPath)}>${view.error.failedStepPath}</a>`}: ${view.error.message}</div>`}
    ${view.plan === null && view.timeline.rows.length === 0
      ? ""
      : html`<div class="panes">
          <section class="card"><h2>Plan</h2>${view.plan === null ? html`<p class="muted">No plan registered yet.</p>` : html`<${PlanGraphView} graph=${view.plan} statusOf=${(stepId: string) => latestStatus.get(stepId)} />`}</section>
          <section class="card"><h2>Timeline</h2><${TimelineView} runId=${view.runId} rows=${view.timeline.rows} spanMs=${view.timeline.spanMs} running=${live} /></section>
        </div>`}
    ${view.steps.length === 0
      ? ""
      : html`<h2>Steps</h2>
          <table class="steps">
            <thead><tr><th>step path</th><th>uses</th><th>status</th><th class="num">attempts</th><th class="num">cost</th></tr></thead>
            <tbody>${view.steps.map(
              (step) => html`<tr data-path=${step.stepPath}><td><a href=${stepPath(view.runId, step.stepPath)}>${step.stepPath}</a></td><td>${step.uses}</td><td><span class=${`badge ${step.status}`}>${step.status}</span></td><td class="num">${step.attempts}</td><td class="num">${dollars(step.costUsd)}</td></tr>`,
            )}</tbody>
          </table>`}
    ${view.subRuns.length === 0 ? "" : html`<h2>Sub-runs</h2><${SubRuns} runs=${view.subRuns} />`}
    ${view.status === "completed" && view.kind === "run" ? html`<h2>Output</h2><pre class="output">${pretty(view.output)}</pre>` : ""}
  `;
}

function SubRuns(props: { readonly runs: readonly RunRow[] }) {
  return html`<table class="sub-runs">
    <thead><tr><th>run</th><th>kind</th><th>workflow</th><th>status</th><th class="num">duration</th><th class="num">steps</th><th class="num">cost</th></tr></thead>
    <tbody>${props.runs.map(
      (run) => html`<tr data-run=${run.runId}><td><a href=${runPath(run.runId)}>${run.runId}</a></td><td>${run.kind}</td><td>${run.workflow ?? "–"}</td><td><span class=${`badge ${run.status}`}>${run.status}</span></td><td class="num">${duration(run.durationMs)}</td><td class="num">${run.stepsCompleted}/${run.stepsTotal}</td><td class="num">${dollars(run.costUsd)}</td></tr>`,
    )}</tbody>
  </table>`;
}
