import { setBounded } from "./bounded-map.ts";
import { capFault, type Fault, NO_FAULT, parseFault } from "./faults.ts";

/**
 * Resolves the fault of one request: header and directive specs combined, else the simulator's
 * default. Counts `times=N` faults per spec and conversation, so a retried request can succeed.
 */
export type FaultBook = {
  resolve(input: { header: string | undefined; directive: string | undefined; key: string }): Fault;
};

export function createFaultBook(defaultSpec: string | undefined, capMs: number): FaultBook {
  const seen = new Map<string, number>();
  const parsed = new Map<string, Fault>();
  const parse = (spec: string) => {
    let fault = parsed.get(spec);
    if (!fault) {
      fault = capFault(parseFault(spec), capMs);
      setBounded(parsed, spec, fault, 1000);
    }
    return fault;
  };
  if (defaultSpec) parse(defaultSpec); // a bad default fails at start-up, not per request
  return {
    resolve({ header, directive, key }) {
      const spec = [header, directive].filter(Boolean).join(",") || defaultSpec;
      if (!spec) return NO_FAULT;
      const fault = parse(spec);
      if (fault.times === undefined) return fault;
      const counter = `${spec}\u0000${key}`;
      const count = (seen.get(counter) ?? 0) + 1;
      setBounded(seen, counter, count, 10_000);
      return count <= fault.times ? fault : NO_FAULT;
    },
  };
}
