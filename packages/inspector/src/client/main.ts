/// <reference lib="dom" />
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { RunPage } from "./run-page.js";
import { RunsPage } from "./runs-page.js";
import { StepPage } from "./step-page.js";

type Route = { readonly page: "runs"; readonly query: URLSearchParams } | { readonly page: "run"; readonly runId: string } | { readonly page: "step"; readonly runId: string; readonly stepPath: string };

/** `#/` (and `#/?workflow=…&status=…`), `#/runs/<id>`, `#/runs/<id>/steps/<path>`. */
function routeOf(hash: string): Route {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter((part) => part !== "").map((part) => decodeURIComponent(part));
  if (parts[0] === "runs" && parts[1] !== undefined && parts[2] === "steps" && parts[3] !== undefined) return { page: "step", runId: parts[1], stepPath: parts[3] };
  if (parts[0] === "runs" && parts[1] !== undefined) return { page: "run", runId: parts[1] };
  return { page: "runs", query: new URLSearchParams(query) };
}

function App() {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(routeOf(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  const page =
    route.page === "runs"
      ? html`<${RunsPage} query=${route.query} />`
      : route.page === "run"
        ? html`<${RunPage} key=${route.runId} runId=${route.runId} />`
        : html`<${StepPage} key=${`${route.runId}/${route.stepPath}`} runId=${route.runId} stepPath=${route.stepPath} />`;
  return html`<header class="top"><a href="#/">Little Workflow inspector</a><span class="muted">read-only</span></header><main>${page}</main>`;
}

const root = document.getElementById("app")!;
// The "Loading…" placeholder goes: render adds to what is there.
root.replaceChildren();
render(html`<${App} />`, root);
