/**
 * A durable agent session in its own process, for the kill-and-resume acceptance test. It talks
 * to the parent's loopback server over HTTP, records into a JSONL event file, and runs one tool
 * that appends to a log file. Options (JSON in argv[2]):
 *   stopAfterTurn — once turn N and all its tool calls are committed, print `COMMITTED N` and hang
 *   hangInToolNote — the tool call with this note logs itself, prints `IN_TOOL <callId>` and hangs
 */
import { appendFileSync } from "node:fs";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  createHarnessEventRecorder,
  durableGenerateText,
  durableStreamText,
  runHarnessSession,
  type HarnessEventSink,
  type ModelRespondedPayload,
  type PlannerManifest,
} from "@little-stack/harness";
import { jsonSchema, stepCountIs, tool } from "ai";
import { openJsonlHarnessEventSink } from "../event-sinks/open-jsonl-harness-event-sink.js";

type ChildOptions = {
  baseURL: string;
  eventsFile: string;
  toolLogFile: string;
  runId: string;
  mode: "generate" | "stream";
  stopAfterTurn?: number;
  hangInToolNote?: string;
};

const options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;
const hang = () => new Promise<never>(() => undefined);

const manifest: PlannerManifest = {
  harnessId: "kill-test@1",
  plannerModelSlotId: "loopback-model",
  systemPromptHash: "sha256:0000000000000000000000000000000000000000000000000000000000000001",
  skillsHash: "sha256:0000000000000000000000000000000000000000000000000000000000000002",
  workflowDefinitionHash: "sha256:0000000000000000000000000000000000000000000000000000000000000003",
  globalToolsHash: "sha256:0000000000000000000000000000000000000000000000000000000000000004",
  bashCapabilitiesHash: "sha256:0000000000000000000000000000000000000000000000000000000000000005",
  memoryStoreIds: [],
};

/** Watches what is committed; after turn N's response and every tool result, reports and hangs. */
function stopAfterTurn(sink: HarnessEventSink, turn: number): HarnessEventSink {
  const pending = new Set<string>();
  let responded = false;
  return {
    ...sink,
    async append(events) {
      const stored = await sink.append(events);
      for (const event of events) {
        if (event.type === "harness.model.responded" && event.payload.turn === turn) {
          responded = true;
          for (const call of (event.payload as ModelRespondedPayload).response.toolCalls ?? []) pending.add(call.callId);
        }
        if (event.type === "harness.tool_call.succeeded" || event.type === "harness.tool_call.failed") pending.delete(event.payload.callId);
      }
      if (responded && pending.size === 0) {
        process.stdout.write(`COMMITTED ${turn}\n`);
        return hang();
      }
      return stored;
    },
  };
}

const fileSink = await openJsonlHarnessEventSink({ filePath: options.eventsFile, runId: options.runId });
const sink = options.stopAfterTurn === undefined ? fileSink : stopAfterTurn(fileSink, options.stopAfterTurn);
const recorder = createHarnessEventRecorder({ sink });
const model = createOpenAICompatible({ name: "loopback", baseURL: options.baseURL, apiKey: "test-key", includeUsage: true })("loopback-model");

const appendNote = tool({
  description: "Appends a note to the log.",
  inputSchema: jsonSchema<{ note: string }>({ type: "object", properties: { note: { type: "string" } }, required: ["note"] }),
  execute: async ({ note }, { toolCallId }) => {
    appendFileSync(options.toolLogFile, `${toolCallId} ${note}\n`);
    if (note === options.hangInToolNote) {
      process.stdout.write(`IN_TOOL ${toolCallId}\n`);
      await hang();
    }
    return { saved: note };
  },
});

const text = await runHarnessSession({
  recorder,
  scope: { runId: options.runId, logDir: "/unused", role: "planner" },
  sessionKey: "plan",
  task: { kind: "plan" },
  manifest,
  body: async (session) => {
    const settings = { model, tools: { append_note: appendNote }, prompt: "Write the notes one, two-a, two-b, three.", stopWhen: stepCountIs(10) };
    if (options.mode === "stream") return await durableStreamText(session, settings).text;
    return (await durableGenerateText(session, settings)).text;
  },
});
process.stdout.write(`DONE ${JSON.stringify(text)}\n`);
