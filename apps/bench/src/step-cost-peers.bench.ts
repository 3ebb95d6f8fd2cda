// Mastra's and LangGraph's rows of issue 18's table, measured beside ours in one run: the same
// workload (200 sequential trivial steps, each returning its input; a 100-wide fan-out with every
// branch in flight), a fresh database per run, rounds interleaved with raw better-sqlite3 (WAL,
// synchronous FULL, one row per step) and runWorkflow (fixed plan, default harness) in this process.
//
// The peers are installed with npm into a temp dir of their own (pinned versions below, never the
// workspace lockfile) and reused by the next run; a peer that cannot be installed or loaded is
// skipped with a message saying why. Each peer round is a child process that runs the workload
// `warmUpRuns` times to warm up and then once measured; ours get as many warm-up runs before the
// rounds, in this process (V8 optimizes code run once per step only after thousands of steps:
// see the README, "Warmed up before it is measured").
//
//   pnpm build && pnpm --filter @little-stack-apps/bench run step-cost-peers
//   STEP_COST_STEPS=200 STEP_COST_BRANCHES=100 STEP_COST_ROUNDS=5 STEP_COST_WARMUP_RUNS=10 STEP_COST_PEERS_DIR=… to change
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchRoot, chainLwir, fanOutLwir, fixedPlanWorkflow, fmt, loadAverage, median, rawCommits, runWorkflowOnce, type Durability } from "./step-cost-workload.js";

const steps = Number(process.env.STEP_COST_STEPS ?? 200);
const branches = Number(process.env.STEP_COST_BRANCHES ?? 100);
const rounds = Number(process.env.STEP_COST_ROUNDS ?? 5);
/** Warm-up runs of every engine's chain and fan-out before a measured one (ours once, a peer's in each round's child). */
const warmUpRuns = Number(process.env.STEP_COST_WARMUP_RUNS ?? 10);

/**
 * Pinned versions that install and run on Node 20 (Mastra 1.x needs Node ≥ 22.13, so its last
 * 0.x line is used; @mastra/libsql 0.16 is the line for @mastra/core 0.24).
 */
const peers = {
  mastra: {
    label: "Mastra 0.24.9 + LibSQLStore",
    workload: "mastra-workload.mjs",
    packages: ["@mastra/core@0.24.9", "@mastra/libsql@0.16.4", "zod@3.25.76"],
  },
  langgraph: {
    label: "LangGraph 1.7.3 + SqliteSaver (durability sync)",
    workload: "langgraph-workload.mjs",
    packages: ["@langchain/langgraph@1.7.3", "@langchain/langgraph-checkpoint@1.2.2", "@langchain/langgraph-checkpoint-sqlite@1.0.4", "@langchain/core@1.4.0", "better-sqlite3@12.11.1"],
  },
} as const;
type Peer = keyof typeof peers;

const peersRoot = process.env.STEP_COST_PEERS_DIR ?? join(tmpdir(), "little-bench-peers");

/** Installs a peer (once: a marker file names what was installed) and returns its dir, or why not. */
function install(peer: Peer): { dir: string } | { skipped: string } {
  const { packages, workload } = peers[peer];
  const dir = join(peersRoot, peer);
  const marker = join(dir, "installed.txt");
  const wanted = packages.join(" ");
  if (!(existsSync(marker) && spawnSync("cat", [marker], { encoding: "utf8" }).stdout === wanted)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `bench-peer-${peer}`, private: true, type: "module" }));
    console.log(`installing ${wanted} into ${dir} (npm; once) …`);
    const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", ...packages], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr" },
    });
    if (npm.status !== 0) return { skipped: `npm install ${wanted} failed (exit ${String(npm.status)}): ${(npm.stderr || npm.stdout).trim().split("\n").slice(-3).join(" | ")}` };
    writeFileSync(marker, wanted);
  }
  copyFileSync(fileURLToPath(new URL(`./peers/${workload}`, import.meta.url)), join(dir, workload));
  return { dir };
}

type PeerFigures = { chainMs: number; fanMs: number };

function runPeer(peer: Peer, dir: string, dataDir: string): Promise<PeerFigures> {
  mkdirSync(dataDir, { recursive: true });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(dir, peers[peer].workload), dataDir, String(steps), String(branches)], { cwd: dir, encoding: "utf8", env: { ...process.env, PEER_WARMUP_RUNS: String(warmUpRuns) } }, (error, stdout, stderr) => {
      rmSync(dataDir, { recursive: true, force: true });
      if (error !== null) reject(new Error(`${peer} workload failed: ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as PeerFigures);
    });
  });
}

console.log(`step-cost-peers benchmark: ${steps} sequential trivial steps and a ${branches}-wide fan-out, fresh database per run, ${warmUpRuns} warm-up runs of each engine, ${rounds} interleaved rounds; Node ${process.version}; load average ${loadAverage()}`);
const root = benchRoot("step-cost-peers-");
const installed: Partial<Record<Peer, string>> = {};
for (const peer of Object.keys(peers) as Peer[]) {
  const result = install(peer);
  if ("skipped" in result) {
    console.log(`  ${peers[peer].label}: skipped — ${result.skipped}`);
    continue;
  }
  // A peer that installs but does not load or run (another Node, a missing native build) is skipped too.
  try {
    await runPeer(peer, result.dir, join(root, `${peer}-check`));
    installed[peer] = result.dir;
  } catch (error) {
    console.log(`  ${peers[peer].label}: skipped — ${(error as Error).message}`);
  }
}

const chain = fixedPlanWorkflow(chainLwir(steps));
const fan = fixedPlanWorkflow(fanOutLwir(branches));
const items = Array.from({ length: branches }, (_, i) => ({ i }));
const oursOnce = async (durability: Durability) => ({
  chainMs: (await runWorkflowOnce({ root, workflow: chain, durability })).ms,
  fanMs: (await runWorkflowOnce({ root, workflow: fan, input: { items }, durability, maxConcurrentSteps: branches })).ms,
});
for (let run = 0; run < warmUpRuns; run += 1) {
  await oursOnce("strict");
  await oursOnce("process");
  rawCommits({ root, rows: steps, durability: "strict" });
}

type Row = { chain: number[]; fan: number[]; raw: number[] };
const rows: Record<string, Row> = {};
const add = (name: string, figures: PeerFigures, raw: number): void => {
  const row = (rows[name] ??= { chain: [], fan: [], raw: [] });
  row.chain.push(figures.chainMs);
  row.fan.push(figures.fanMs);
  row.raw.push(raw);
};
for (let round = 0; round < rounds; round += 1) {
  const raw = rawCommits({ root, rows: steps, durability: "strict" });
  add("raw better-sqlite3, WAL, FULL, one row per step", { chainMs: raw, fanMs: Number.NaN }, raw);
  add("runWorkflow, fixed plan, default harness, strict", await oursOnce("strict"), raw);
  add("runWorkflow, durability process", await oursOnce("process"), raw);
  for (const [peer, dir] of Object.entries(installed) as [Peer, string][]) add(peers[peer].label, await runPeer(peer, dir, join(root, `${peer}-${round}`)), raw);
}

const mastraFan = rows[peers.mastra.label]?.fan;
console.log(`\n| engine | ms/step | × raw FULL commit (same round) | ${branches}-branch fan-out ms | fan-out × Mastra .foreach |`);
console.log("|---|---|---|---|---|");
for (const [name, row] of Object.entries(rows)) {
  const ratios = row.chain.map((ms, index) => ms / row.raw[index]!);
  const fanRatio = mastraFan === undefined || Number.isNaN(row.fan[0]!) ? "" : fmt(median(row.fan.map((ms, index) => ms / mastraFan[index]!)), 2) + "×";
  console.log(`| ${name} | ${fmt(median(row.chain) / steps, 3)} | ${fmt(median(ratios), 2)}× | ${Number.isNaN(row.fan[0]!) ? "" : fmt(median(row.fan), 1)} | ${fanRatio} |`);
}
const mastraChain = rows[peers.mastra.label]?.chain;
const processChain = rows["runWorkflow, durability process"]!.chain;
if (mastraChain !== undefined) console.log(`\nrunWorkflow process per step = ${fmt(median(processChain.map((ms, index) => ms / mastraChain[index]!)), 2)}× Mastra's (target ≤ 0.5×)`);
console.log(`medians of ${rounds} rounds; load average at the end ${loadAverage()}`);
rmSync(root, { recursive: true, force: true });
