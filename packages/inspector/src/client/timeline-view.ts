/// <reference lib="dom" />
import type { TimelineRow } from "../server/step-timeline.js";
import { stepPath } from "./api.js";
import { duration } from "./format.js";
import { html } from "./html.js";

/**
 * One row per step path on the run's time axis: branches of a fan-out side by side, each loop
 * visit and each retry (attempt n) as its own bar, the fixer in orange on its step's row.
 */
export function TimelineView(props: { readonly runId: string; readonly rows: readonly TimelineRow[]; readonly spanMs: number; readonly running: boolean }) {
  const span = Math.max(1, props.spanMs);
  return html`<div class="timeline" role="list" aria-label="timeline">
    <div class="muted">0 – ${duration(props.spanMs)}</div>
    ${props.rows.map(
      (row) => html`<div class="row" role="listitem" data-path=${row.stepPath}>
        <div class="label" title=${row.stepPath}><a href=${stepPath(props.runId, row.stepPath)}>${row.stepPath}</a></div>
        <div class="track">
          ${row.bars.map((bar) => {
            const end = bar.endMs ?? (props.running ? span : bar.startMs);
            const left = (100 * bar.startMs) / span;
            const width = Math.max(0.4, (100 * (end - bar.startMs)) / span);
            const label = bar.kind === "fixer" ? "fixer" : bar.attempt > 1 ? `attempt ${bar.attempt}` : "";
            return html`<div class=${`bar ${bar.kind === "fixer" ? "fixer" : bar.status}`} data-status=${bar.status} data-kind=${bar.kind} title=${`${row.stepPath} ${label} ${bar.status} ${duration(end - bar.startMs)}`} style=${`left:${left.toFixed(2)}%;width:${Math.min(width, 100 - left).toFixed(2)}%`}>${label}</div>`;
          })}
        </div>
      </div>`,
    )}
  </div>`;
}
