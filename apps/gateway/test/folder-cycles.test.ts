import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * Dependencies between the folders of src point one way (type imports count too). Top to bottom:
 *
 *   (root)     cli, serve-command, store-commands, start-gateway, open-shared-state,
 *              embedded-simulator: assembly
 *   doctor     the `doctor` command
 *   http       the Hono app: routes, handlers, middleware
 *   audio, tasks, models   endpoint features the routes mount
 *   services   GatewayServices, the bundle built at start
 *   pipeline   one generation: route, bill, call upstream (with fallback), reply
 *   count      one token count: forwarded to a provider that counts (with fallback), or estimated
 *   contract   the client-facing wire of the API reference: endpoints, envelope, error bodies, warnings header
 *   cache      Gemini context caches the gateway creates
 *   upstream   calling a provider: request preparation, send, first chunk, failures
 *   billing, stream, observe, log, webhooks, queue, files, health, ratelimit, redis, routing,
 *   auth, storage, config, catalogue   the parts each of those is built from (catalogue: the
 *              product's model catalogue, which imports no other folder)
 *
 * A folder may import from folders below it, never from one above: a cycle here means a type or
 * function sits in the wrong folder. Files directly under src are one node, "(root)".
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^"';]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const folderOf = (file: string) => {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? "(root)" : (parts[0] as string);
};

/** Folder -> folder -> one `file -> imported file` line that makes the edge (for the message). */
function folderEdges(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(dirname(file), (match[1] ?? match[2]) as string);
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      edges.set(from, out);
      if (!out.has(to)) out.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return edges;
}

/** The strongly connected components of more than one folder (Tarjan). */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop() as string;
      component.push(top);
    } while (top !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("gateway folders", () => {
  it("import one way: no folder-level import cycle", () => {
    const edges = folderEdges();
    const report = cycles(edges).map((component) => {
      const inside = component.flatMap((from) =>
        [...(edges.get(from) ?? [])]
          .filter(([to]) => component.includes(to))
          .map(([, line]) => `  ${line}`),
      );
      return [component.join(" <-> "), ...inside].join("\n");
    });
    expect(report, report.join("\n")).toEqual([]);
  });

  it("never imports the simulator statically: a gateway with channels does not load it", () => {
    const STATIC =
      /^\s*(?:import|export)\s(?!type\s)[^"';]*?from\s*["']@interlingua\/provider-sim["']/m;
    const offenders = sourceFiles(SRC).filter((file) => STATIC.test(readFileSync(file, "utf8")));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it("finds the imports it checks", () => {
    // A guard on the guard: a regex that matched nothing would pass the test above vacuously.
    const edges = folderEdges();
    expect(edges.get("http")?.has("pipeline")).toBe(true);
  });
});
