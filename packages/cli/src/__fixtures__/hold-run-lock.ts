// Holds a run's lock in a live process: arguments dataDir runId. Prints "locked" once it holds it.
import { localWorld } from "@little-stack/local-world";

const [dataDir, runId] = process.argv.slice(2);
const world = localWorld({ dataDir: dataDir! });
await world.acquireRunLock(runId!);
process.stdout.write("locked\n");
setInterval(() => undefined, 60_000);
