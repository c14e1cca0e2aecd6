#!/usr/bin/env node
import { parseArgs } from "node:util";
import { startProviderSim } from "./server.ts";

const USAGE = `provider-sim: a simulator of the OpenAI, Anthropic and Gemini wire protocols

  node src/cli.ts [--port 9100] [--host 127.0.0.1] [--keys k1,k2] [--fixtures DIR] [--fault SPEC]
                 [--veo-polls N] [--veo-ms MS]   (Veo operations: pending polls, pending time)`;

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    keys: { type: "string" },
    fixtures: { type: "string" },
    fault: { type: "string" },
    "veo-polls": { type: "string" },
    "veo-ms": { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const sim = await startProviderSim({
  port: Number(values.port),
  host: values.host,
  record: false, // nobody reads the log of a standalone process
  ...(values.keys ? { keys: values.keys.split(",").filter(Boolean) } : {}),
  ...(values.fixtures ? { fixturesDir: values.fixtures } : {}),
  ...(values.fault ? { fault: values.fault } : {}),
  veo: {
    ...(values["veo-polls"] ? { pendingPolls: Number(values["veo-polls"]) } : {}),
    ...(values["veo-ms"] ? { pendingMs: Number(values["veo-ms"]) } : {}),
  },
});
console.log(`provider-sim listening on ${sim.url}`);

const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
