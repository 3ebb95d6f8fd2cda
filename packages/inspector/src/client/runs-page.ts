/// <reference lib="dom" />
import { useEffect, useState } from "preact/hooks";
import type { RunRow } from "../server/run-views.js";
import { getJson, runPath } from "./api.js";
import { dollars, duration, time } from "./format.js";
import { html } from "./html.js";

const statuses = ["running", "completed", "failed", "planned"];

/** All runs of the data dir, newest first, filtered by workflow and status (kept in the URL). */
export function RunsPage(props: { readonly query: URLSearchParams }) {
  const workflow = props.query.get("workflow") ?? "";
  const status = props.query.get("status") ?? "";
  const [all, setAll] = useState<RunRow[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    getJson<RunRow[]>("/api/runs").then(setAll, (failure: unknown) => setError(String(failure)));
  }, []);
  if (error !== undefined) return html`<div class="error">${error}</div>`;
  if (all === undefined) return html`<p class="loading">Loading runs…</p>`;
  const workflows = [...new Set(all.map((run) => run.workflow).filter((name): name is string => name !== null))].sort();
  const rows = all.filter((run) => (workflow === "" || run.workflow === workflow) && (status === "" || run.status === status));
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(props.query);
    if (value === "") next.delete(name);
    else next.set(name, value);
    const text = next.toString();
    location.hash = text === "" ? "#/" : `#/?${text}`;
  };
  return html`
    <h1>Runs</h1>
    <div class="filters">
      <label>Workflow <select name="workflow" value=${workflow} onChange=${(event: Event) => setFilter("workflow", (event.target as HTMLSelectElement).value)}>
        <option value="">all</option>
        ${workflows.map((name) => html`<option value=${name}>${name}</option>`)}
      </select></label>
      <label>Status <select name="status" value=${status} onChange=${(event: Event) => setFilter("status", (event.target as HTMLSelectElement).value)}>
        <option value="">all</option>
        ${statuses.map((name) => html`<option value=${name}>${name}</option>`)}
      </select></label>
      <span class="muted">${rows.length} of ${all.length} runs</span>
    </div>
    <table class="runs">
      <thead><tr><th>run</th><th>kind</th><th>workflow</th><th>status</th><th>started</th><th class="num">duration</th><th class="num">steps</th><th class="num">cost</th></tr></thead>
      <tbody>
        ${rows.map(
          (run) => html`<tr data-run=${run.runId}>
            <td><a href=${runPath(run.runId)}>${run.runId}</a>${run.parentRunId === null ? "" : html`<div class="muted">in <a href=${runPath(run.parentRunId)}>${run.parentRunId}</a></div>`}</td>
            <td>${run.kind}</td>
            <td>${run.workflow ?? "–"}</td>
            <td><span class=${`badge ${run.status}`}>${run.status}</span></td>
            <td>${time(run.startedAt)}</td>
            <td class="num">${duration(run.durationMs)}</td>
            <td class="num">${run.stepsCompleted}/${run.stepsTotal}</td>
            <td class="num">${dollars(run.costUsd)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  `;
}
