/// <reference lib="dom" />
import { useEffect, useState } from "preact/hooks";
import type { AttemptView, ModelCallView, StepView, ToolCallView } from "../server/step-view.js";
import { getJson, runPath } from "./api.js";
import { dollars, duration, percent, pretty, time } from "./format.js";
import { html } from "./html.js";

/** One step path: its input, and per attempt the output, model calls, tool calls, errors and the fixer's diff. */
export function StepPage(props: { readonly runId: string; readonly stepPath: string }) {
  const [view, setView] = useState<StepView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    getJson<StepView>(`/api/runs/${encodeURIComponent(props.runId)}/steps/${encodeURIComponent(props.stepPath)}`).then(setView, (failure: unknown) => setError(String(failure)));
  }, [props.runId, props.stepPath]);
  if (error !== undefined) return html`<div class="error">${error}</div>`;
  if (view === undefined) return html`<p class="loading">Loading step…</p>`;
  return html`
    <p><a href=${runPath(view.runId)}>← run ${view.runId}</a></p>
    <h1>Step ${view.stepPath} <span class=${`badge ${view.status}`}>${view.status}</span></h1>
    <div class="facts"><span>uses <b>${view.uses}</b></span><span>attempts <b>${view.attempts.length}</b></span></div>
    <h2>Input</h2>
    ${view.input === null ? html`<p class="muted">none recorded</p>` : html`<div class="muted">${view.input.source}</div><pre class="input">${pretty(view.input.value)}</pre>`}
    ${view.attempts.map((attempt) => html`<${Attempt} attempt=${attempt} />`)}
  `;
}

function Attempt(props: { readonly attempt: AttemptView }) {
  const { attempt } = props;
  return html`<section class="card attempt" data-attempt=${attempt.attempt}>
    <h2>Attempt ${attempt.attempt} <span class=${`badge ${attempt.status}`}>${attempt.status}</span> <span class="muted">${time(attempt.startedAt)}</span></h2>
    ${attempt.error === null ? "" : html`<div class="error" role="alert">${errorText(attempt.error)}</div>`}
    ${attempt.status === "completed" ? html`<h3>Output${attempt.outputRef === null ? "" : html` <span class="muted">${attempt.outputRef}</span>`}</h3><pre class="output">${pretty(attempt.output)}</pre>` : ""}
    ${attempt.artifacts.length === 0 ? "" : html`<h3>Artifacts</h3><ul>${attempt.artifacts.map((artifact) => html`<li>${artifact.name} <span class="muted">${artifact.contentType}, ${artifact.size} bytes, ${artifact.id}</span></li>`)}</ul>`}
    ${attempt.modelCalls.length === 0 ? "" : html`<h3>Model calls</h3>${attempt.modelCalls.map((call) => html`<${ModelCall} call=${call} />`)}`}
    ${attempt.toolCalls.length === 0 ? "" : html`<h3>Tool calls</h3><${ToolCalls} calls=${attempt.toolCalls} />`}
    ${attempt.fixedSourceDiff === null
      ? ""
      : html`<h3>Fixer (${attempt.fixerSessions} session${attempt.fixerSessions === 1 ? "" : "s"}): fixed source</h3>
          <div class="diff" aria-label="fixed source diff">${attempt.fixedSourceDiff.flatMap((part) =>
            part.text.replace(/\n$/, "").split("\n").map((line) => html`<div class=${part.kind}>${part.kind === "added" ? "+ " : part.kind === "removed" ? "- " : "  "}${line}</div>`),
          )}</div>`}
  </section>`;
}

function ModelCall(props: { readonly call: ModelCallView }) {
  const { call } = props;
  return html`<div class="call model-call" data-call=${call.callId}>
    <div class="facts">
      <span>turn <b>${call.turn}</b></span><span>model <b>${call.model}</b></span><span><span class=${`badge ${call.status}`}>${call.status}</span></span>
      ${call.usage === null ? "" : html`<span>tokens in <b>${call.usage.inputTokens}</b> cached <b>${call.usage.cachedInputTokens}</b> (${percent(call.cachedShare)}) out <b>${call.usage.outputTokens}</b></span>`}
      <span>cost <b class="cost">${dollars(call.costUsd)}</b></span>
      <span>took <b>${duration(call.durationMs)}</b></span>
    </div>
    <details open><summary>Prompt (${call.messages.length} message${call.messages.length === 1 ? "" : "s"}${call.tools.length === 0 ? "" : `, tools: ${call.tools.join(", ")}`})</summary>
      ${call.messages.map((message) => html`<div class="muted">${String((message as { role?: unknown }).role ?? "?")}</div><pre class="prompt">${messageText(message)}</pre>`)}
    </details>
    <h3>Response</h3>
    ${call.reasoning === null ? "" : html`<div class="muted">reasoning</div><pre>${call.reasoning}</pre>`}
    ${call.text === null ? "" : html`<pre class="response">${call.text}</pre>`}
    ${call.toolCalls.map((request) => html`<div class="muted">asked for ${request.toolName}</div><pre>${pretty(request.args)}</pre>`)}
    ${call.error === null ? "" : html`<div class="error">${errorText(call.error)}</div>`}
  </div>`;
}

function ToolCalls(props: { readonly calls: readonly ToolCallView[] }) {
  return html`<table class="tool-calls">
    <thead><tr><th>tool</th><th>caller</th><th>status</th><th>arguments</th><th>result</th><th class="num">took</th></tr></thead>
    <tbody>${props.calls.map(
      (call) => html`<tr data-call=${call.callId}><td>${call.toolName}</td><td>${call.caller}${call.turn === null ? "" : ` (turn ${call.turn})`}</td><td><span class=${`badge ${call.status}`}>${call.status}</span></td><td><pre>${pretty(call.args)}</pre></td><td>${call.error === null ? html`<pre>${pretty(call.result)}</pre>` : html`<div class="error">${errorText(call.error)}</div>`}</td><td class="num">${duration(call.durationMs)}</td></tr>`,
    )}</tbody>
  </table>`;
}

function messageText(message: unknown): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : pretty(part))).join("\n");
  return pretty(content);
}

function errorText(error: unknown): string {
  const value = error as { name?: unknown; message?: unknown; causeCode?: unknown };
  if (typeof value?.message === "string") return `${typeof value.name === "string" ? `${value.name}: ` : ""}${value.message}${typeof value.causeCode === "string" ? ` (${value.causeCode})` : ""}`;
  return pretty(error);
}
