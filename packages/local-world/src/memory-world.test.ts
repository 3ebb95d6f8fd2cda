import { describeWorldConformance } from "./test/index.js";
import { memoryWorld } from "./memory-world.js";

describeWorldConformance("memoryWorld", () => memoryWorld());
