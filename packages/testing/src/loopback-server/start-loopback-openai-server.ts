import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedTurn } from "../scripted-model/scripted-turn.js";
import { chatCompletionBody, chatCompletionChunks } from "./openai-chat-response.js";

/** A request the loopback server received: the parsed JSON body of a chat completion. */
export type LoopbackRequest = {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly stream: boolean;
};

export type LoopbackOpenAIServer = {
  /** `http://127.0.0.1:<port>/v1`, for `createOpenAICompatible({ baseURL })`. */
  readonly baseURL: string;
  /** Chat-completion requests received so far (including ones past the end of the script). */
  readonly requestCount: number;
  readonly requests: readonly LoopbackRequest[];
  close(): Promise<void>;
};

/**
 * How the server answers: `script` answers request n with turn n (order matters); `respond` picks
 * the answer from the request itself (for callers whose request order is not fixed — concurrent
 * branches, or a process killed and resumed that sends an in-flight request again). `undefined`
 * from `respond` is answered like a request past the end of a script.
 */
export type LoopbackAnswers =
  | { readonly script: readonly ScriptedTurn[]; readonly respond?: never }
  | { readonly respond: (request: LoopbackRequest, requestIndex: number) => ScriptedTurn | undefined; readonly script?: never };

/**
 * An HTTP server on 127.0.0.1 speaking OpenAI chat completions (`POST /v1/chat/completions`,
 * JSON or SSE ending in `data: [DONE]`), answering from a script (request n gets turn n) or a
 * `respond` function. A request with no answer gets HTTP 500 with a message saying so, and still
 * counts.
 */
export async function startLoopbackOpenAIServer(
  options: LoopbackAnswers & {
    /** Reported as the `model` of each response; the request's model is echoed when omitted. */
    readonly model?: string;
    /** Waits this long before answering each request, like a real model (default 0). */
    readonly delayMs?: number;
  },
): Promise<LoopbackOpenAIServer> {
  const script = options.script;
  const answerFor =
    options.respond ??
    ((_request: LoopbackRequest, requestIndex: number): ScriptedTurn | undefined => script![requestIndex]);
  const describeMissing = (requestIndex: number): string =>
    script === undefined
      ? `loopback script exhausted: request ${requestIndex + 1} has no answer (respond returned undefined)`
      : `loopback script exhausted: request ${requestIndex + 1} but the script has ${script.length} turns`;
  const requests: LoopbackRequest[] = [];
  const server = createServer((request, response) => {
    handle({ request, response, answerFor, describeMissing, requests, model: options.model, delayMs: options.delayMs ?? 0 }).catch((error: unknown) => {
      sendJson(response, 500, { error: { message: `loopback server failure: ${String(error)}`, type: "server_error" } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get requestCount() {
      return requests.length;
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

async function handle(options: {
  request: IncomingMessage;
  response: ServerResponse;
  answerFor: (request: LoopbackRequest, requestIndex: number) => ScriptedTurn | undefined;
  describeMissing: (requestIndex: number) => string;
  requests: LoopbackRequest[];
  model: string | undefined;
  delayMs: number;
}): Promise<void> {
  const { request, response, requests } = options;
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
  if (request.method !== "POST" || path !== "/v1/chat/completions") {
    sendJson(response, 404, { error: { message: `loopback server only serves POST /v1/chat/completions, not ${request.method} ${path}`, type: "invalid_request_error" } });
    return;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBody(request)) as Record<string, unknown>;
  } catch {
    sendJson(response, 400, { error: { message: "request body is not JSON", type: "invalid_request_error" } });
    return;
  }
  const stream = body.stream === true;
  const requestIndex = requests.length;
  const received: LoopbackRequest = { path, body, stream };
  requests.push(received);
  const turn = options.answerFor(received, requestIndex);
  if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  if (turn === undefined) {
    sendJson(response, 500, { error: { message: options.describeMissing(requestIndex), type: "script_exhausted" } });
    return;
  }
  if (turn.error !== undefined) {
    sendJson(response, 500, { error: { message: turn.error, type: "server_error" } });
    return;
  }
  const model = options.model ?? (typeof body.model === "string" ? body.model : "loopback-model");
  if (!stream) {
    sendJson(response, 200, chatCompletionBody({ turn, requestIndex, model }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const chunk of chatCompletionChunks({ turn, requestIndex, model })) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  response.end("data: [DONE]\n\n");
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
