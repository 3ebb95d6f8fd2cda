import { createServer, connect, type Socket } from "node:net";

/**
 * A loopback TCP proxy in front of a server that can hold traffic: `holdReplies()` keeps
 * forwarding what clients send but holds everything the server answers, as a network stall after
 * a COMMIT was sent does; `release()` lets it through again. `dropAll()` cuts every connection.
 */
export type StallingProxy = {
  readonly port: number;
  holdReplies(): void;
  holdEverything(): void;
  /** Delivers what was held and forwards normally again. */
  release(): void;
  dropAll(): void;
  /** Bytes held so far since the last release (both directions). */
  heldBytes(): number;
  close(): Promise<void>;
};

export async function startStallingProxy(options: { readonly targetPort: number; readonly targetHost?: string }): Promise<StallingProxy> {
  let mode: "open" | "replies" | "everything" = "open";
  const pairs = new Set<{ client: Socket; server: Socket; toClient: Buffer[]; toServer: Buffer[] }>();
  let held = 0;

  const server = createServer((client) => {
    const upstream = connect(options.targetPort, options.targetHost ?? "127.0.0.1");
    const pair = { client, server: upstream, toClient: [] as Buffer[], toServer: [] as Buffer[] };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => {
      if (mode === "everything") {
        pair.toServer.push(chunk);
        held += chunk.length;
      } else upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (mode !== "open") {
        pair.toClient.push(chunk);
        held += chunk.length;
      } else client.write(chunk);
    });
    client.on("error", end);
    upstream.on("error", end);
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("proxy has no port");

  return {
    port: address.port,
    holdReplies: () => void (mode = "replies"),
    holdEverything: () => void (mode = "everything"),
    release() {
      mode = "open";
      held = 0;
      for (const pair of pairs) {
        for (const chunk of pair.toServer.splice(0)) pair.server.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    dropAll() {
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.server.destroy();
      }
      pairs.clear();
    },
    heldBytes: () => held,
    async close() {
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
