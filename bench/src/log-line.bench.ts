// What one request log line costs (issue 30: logging at most 5% of a call's CPU at the default
// level): the gateway's own logger as `serve` builds it (pino at info, the credential nets, the
// channel-key redacting hook, tracing off), writing to /dev/null, for the line a completed call
// leaves, a streamed one, and the same at warn (the line is not made). CPU µs per line, median
// of 5 rounds. Divide by a call's CPU (`gateway-cpu.bench.ts --accounting on --log-level info`)
// for the share. `--against` measures another checkout's log modules in the same run, in turn.
//   cd bench && node src/log-line.bench.ts [--against ../../other-checkout]
import { parseArgs } from "node:util";
import { printLogLineCosts } from "../../apps/gateway/bench/log-lines.ts";

const { values: flags } = parseArgs({ options: { against: { type: "string" } } });
await printLogLineCosts(flags.against);
