/** The page's stylesheet (served as /assets/inspector.css; kept in a module so it ships in dist). */
export const inspectorStyles = `
:root { --ink: #1d2330; --muted: #5d6575; --line: #d9dde5; --bg: #f6f7f9; --card: #fff; --ok: #1f8a4c; --bad: #c0392b; --run: #2f6fdf; --fix: #b7791f; --plan: #6b46c1; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); font-size: 14px; }
header.top { display: flex; align-items: center; gap: 16px; padding: 10px 20px; background: #1d2330; color: #fff; }
header.top a { color: #fff; text-decoration: none; font-weight: 600; }
main { padding: 16px 20px; max-width: 1500px; }
h1 { font-size: 20px; margin: 4px 0 12px; } h2 { font-size: 16px; margin: 18px 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
a { color: var(--run); }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef0f4; font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); }
.badge.completed, .badge.succeeded, .badge.responded { background: var(--ok); } .badge.failed { background: var(--bad); } .badge.running, .badge.in_flight, .badge.scheduled { background: var(--run); } .badge.planned { background: var(--plan); }
.filters { display: flex; gap: 12px; margin-bottom: 12px; align-items: center; }
.filters label { color: var(--muted); }
.facts { display: flex; flex-wrap: wrap; gap: 18px; margin-bottom: 12px; color: var(--muted); }
.facts b { color: var(--ink); font-weight: 600; }
.panes { display: grid; grid-template-columns: minmax(280px, 2fr) 3fr; gap: 16px; align-items: start; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow: auto; }
.error { background: #fdecea; border: 1px solid #f5c2bd; color: #7d1f16; border-radius: 6px; padding: 10px 12px; margin: 8px 0; white-space: pre-wrap; }
pre { background: #f3f4f7; border: 1px solid var(--line); border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; max-height: 360px; overflow: auto; font-size: 12px; }
svg text { font-size: 12px; fill: var(--ink); }
.node rect { fill: #fff; stroke: #8a93a6; } .node.completed rect { stroke: var(--ok); fill: #eaf7ef; } .node.failed rect { stroke: var(--bad); fill: #fdecea; } .node.running rect { stroke: var(--run); fill: #eaf1fd; }
.node .uses { fill: var(--muted); font-size: 10px; } .group > rect { fill: #f7f5fd; stroke: var(--plan); stroke-dasharray: 4 3; }
.edge { fill: none; stroke: #8a93a6; stroke-width: 1.4; } .edge.decision { stroke: var(--plan); } .edge.back { stroke: var(--fix); stroke-dasharray: 5 4; }
.edge-label { font-size: 10px; fill: var(--muted); }
.timeline .row { display: grid; grid-template-columns: 220px 1fr; align-items: center; border-bottom: 1px solid #eef0f4; min-height: 24px; }
.timeline .label { font-family: ui-monospace, monospace; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; padding-right: 8px; }
.timeline .track { position: relative; height: 18px; }
.timeline .bar { position: absolute; top: 2px; height: 14px; border-radius: 3px; background: var(--run); min-width: 3px; color: #fff; font-size: 10px; line-height: 14px; padding-left: 3px; overflow: hidden; white-space: nowrap; }
.timeline .bar.completed { background: var(--ok); } .timeline .bar.failed { background: var(--bad); } .timeline .bar.fixer { background: var(--fix); }
.diff { font-family: ui-monospace, monospace; font-size: 12px; border: 1px solid var(--line); border-radius: 4px; overflow: auto; }
.diff div { white-space: pre; padding: 0 8px; } .diff .added { background: #e6ffec; } .diff .removed { background: #ffebe9; }
.live { color: var(--run); font-weight: 600; } .muted { color: var(--muted); }
.call { border-top: 1px solid var(--line); padding-top: 8px; margin-top: 8px; }
`;
