import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PlannerTurn } from "./scripted-planner-model.js";

/**
 * A small OpenAI-compatible chat-completions server on 127.0.0.1 for this package's HTTP test
 * (the compiler may not import @little-stack/testing, which has the full one). Non-streaming
 * JSON only; each POST /v1/chat/completions is answered with the next scripted turn.
 */
export type LoopbackChatServer = {
  readonly baseURL: string;
  /** Parsed request bodies, in order. */
  readonly requests: readonly Record<string, unknown>[];
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

export async function startLoopbackChatServer(turns: readonly PlannerTurn[]): Promise<LoopbackChatServer> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
      if (request.method !== "POST" || request.url !== "/v1/chat/completions" || body.stream === true) {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "only non-streaming chat completions" } }));
        return;
      }
      const turn = turns[requests.length];
      requests.push(body);
      if (turn === undefined) {
        response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no scripted turn ${requests.length}` } }));
        return;
      }
      const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
        id: `call_${requests.length}_${index}`,
        type: "function",
        function: { name: call.toolName, arguments: JSON.stringify(call.args) },
      }));
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 1_700_000_000,
          model: String(body.model),
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: turn.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
              finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
            },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 20 } },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
