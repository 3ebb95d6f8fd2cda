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
 * Picks the answer to one request. It may take its time (return a Promise): a person or another
 * program answering the request is as good as a function.
 */
export type LoopbackRespond = (request: LoopbackRequest, requestIndex: number) => ScriptedTurn | undefined | Promise<ScriptedTurn | undefined>;

/**
 * How the server answers: `script` answers request n with turn n (order matters); `respond` picks
 * the answer from the request itself (for callers whose request order is not fixed — concurrent
 * branches, or a process killed and resumed that sends an in-flight request again). `undefined`
 * from `respond` is answered like a request past the end of a script.
 */
export type LoopbackAnswers =
  | { readonly script: readonly ScriptedTurn[]; readonly respond?: never }
  | { readonly respond: LoopbackRespond; readonly script?: never };

/**
 * An answer that takes longer than this gets its response headers early and a keep-alive byte now
 * and then (whitespace before the JSON body, an SSE comment line in a stream): Node's fetch gives
 * up on a response whose headers or body do not move for 300 s, and the AI SDK would then send the
 * same request again.
 */
const defaultHeartbeatMs = 10_000;

/**
 * An HTTP server on 127.0.0.1 speaking OpenAI chat completions (`POST /v1/chat/completions`,
 * JSON or SSE ending in `data: [DONE]`), answering from a script (request n gets turn n) or a
 * `respond` function (which may answer later: it can return a Promise). A request with no answer
 * gets HTTP 500 with a message saying so, and still counts.
 */
export async function startLoopbackOpenAIServer(
  options: LoopbackAnswers & {
    /** Reported as the `model` of each response; the request's model is echoed when omitted. */
    readonly model?: string;
    /** Waits this long before answering each request, like a real model (default 0). */
    readonly delayMs?: number;
    /** How long an answer may take before the server starts its keep-alive (default 10 s; see above). */
    readonly heartbeatMs?: number;
  },
): Promise<LoopbackOpenAIServer> {
  const script = options.script;
  const answerFor: LoopbackRespond = options.respond ?? ((_request, requestIndex) => script![requestIndex]);
  const describeMissing = (requestIndex: number): string =>
    script === undefined
      ? `loopback script exhausted: request ${requestIndex + 1} has no answer (respond returned undefined)`
      : `loopback script exhausted: request ${requestIndex + 1} but the script has ${script.length} turns`;
  const requests: LoopbackRequest[] = [];
  const server = createServer((request, response) => {
    const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
    handle({ request, response, answerFor, describeMissing, requests, model: options.model, delayMs: options.delayMs ?? 0, heartbeatMs }).catch((error: unknown) => {
      sendError(response, 500, { message: `loopback server failure: ${String(error)}`, type: "server_error" });
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
  answerFor: LoopbackRespond;
  describeMissing: (requestIndex: number) => string;
  requests: LoopbackRequest[];
  model: string | undefined;
  delayMs: number;
  heartbeatMs: number;
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
  const heartbeat = startHeartbeat({ response, stream, afterMs: options.heartbeatMs });
  let turn: ScriptedTurn | undefined;
  try {
    turn = await options.answerFor(received, requestIndex);
    if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  } finally {
    heartbeat.stop();
  }
  if (turn === undefined) {
    sendError(response, 500, { message: options.describeMissing(requestIndex), type: "script_exhausted" });
    return;
  }
  if (turn.error !== undefined) {
    sendError(response, 500, { message: turn.error, type: "server_error" });
    return;
  }
  const model = options.model ?? (typeof body.model === "string" ? body.model : "loopback-model");
  if (!stream) {
    sendJson(response, 200, chatCompletionBody({ turn, requestIndex, model }));
    return;
  }
  if (!response.headersSent) response.writeHead(200, sseHeaders);
  for (const chunk of chatCompletionChunks({ turn, requestIndex, model })) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  response.end("data: [DONE]\n\n");
}

const sseHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" } as const;

/**
 * Once `afterMs` passes without an answer: status 200 and headers go out, then every `afterMs` a
 * byte the client's parser skips — a space before the JSON body (JSON allows leading whitespace),
 * or an SSE comment line. From then on an error can only travel in the body (see `sendError`).
 */
function startHeartbeat(options: { response: ServerResponse; stream: boolean; afterMs: number }): { stop(): void } {
  const { response, stream } = options;
  const beat = () => {
    if (!response.headersSent) response.writeHead(200, stream ? sseHeaders : { "content-type": "application/json" });
    response.write(stream ? ": waiting for the answer\n\n" : " ");
  };
  const timer = setInterval(beat, options.afterMs);
  return { stop: () => clearInterval(timer) };
}

/**
 * An OpenAI-shaped error: with its status when the headers are still unsent; after a heartbeat,
 * as the body (JSON) or as an `error` event (SSE), which the provider reports as a failed call.
 */
function sendError(response: ServerResponse, status: number, error: { message: string; type: string }): void {
  if (!response.headersSent) {
    sendJson(response, status, { error });
    return;
  }
  const text = JSON.stringify({ error });
  response.end(response.getHeader("content-type") === sseHeaders["content-type"] ? `data: ${text}\n\ndata: [DONE]\n\n` : text);
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
  // After a heartbeat the status and headers are out: the body follows the whitespace.
  if (response.headersSent) {
    response.end(text);
    return;
  }
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
