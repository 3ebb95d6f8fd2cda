import { fileBackedAnswers, type FileBackedAnswersOptions } from "./file-backed-answers.js";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from "./start-loopback-openai-server.js";

export type FileBackedOpenAIServer = LoopbackOpenAIServer & {
  /** The folder of request and response files. */
  readonly dir: string;
};

/**
 * A loopback OpenAI-compatible server (`startLoopbackOpenAIServer`) whose every answer comes from
 * a response file written by whoever plays the model (`fileBackedAnswers`). `close()` stops the
 * waits too.
 */
export async function startFileBackedOpenAIServer(
  options: FileBackedAnswersOptions & {
    /** Reported as the `model` of each response; the request's model is echoed when omitted. */
    readonly model?: string;
    /** See `startLoopbackOpenAIServer` (default 10 s). */
    readonly heartbeatMs?: number;
  },
): Promise<FileBackedOpenAIServer> {
  const answers = fileBackedAnswers(options);
  const server = await startLoopbackOpenAIServer({
    respond: answers.respond,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  return {
    baseURL: server.baseURL,
    get requestCount() {
      return server.requestCount;
    },
    requests: server.requests,
    dir: options.dir,
    close: async () => {
      answers.stop();
      await server.close();
    },
  };
}
