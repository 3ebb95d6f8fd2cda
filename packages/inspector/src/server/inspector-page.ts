import { importMap, scriptHash } from "./inspector-assets.js";
import { inspectorStyles } from "./inspector-styles.js";

const importMapSource = JSON.stringify(importMap);

/**
 * The one HTML page (the client routes by the URL hash). Everything it loads comes from this
 * server; the Content-Security-Policy says so to the browser too (no inline script but the import
 * map, by its hash; no connection elsewhere), so a prompt or output that slipped past escaping
 * still could not run or send anything.
 */
export function inspectorPage(): { readonly html: string; readonly contentSecurityPolicy: string } {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Little Workflow inspector</title>
<link rel="stylesheet" href="/assets/inspector.css">
<script type="importmap">${importMapSource}</script>
<script type="module" src="/assets/client/main.js"></script>
</head>
<body>
<div id="app"><p class="loading">Loading…</p></div>
</body>
</html>
`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src 'self' '${scriptHash(importMapSource)}'`,
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { html, contentSecurityPolicy };
}

export { inspectorStyles };
