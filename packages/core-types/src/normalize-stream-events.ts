import type { StreamEvent, StreamEventOf } from "./stream-event.js";

type Located = { index: number; alternative?: number };
type Delta = StreamEventOf<"text-delta" | "thinking-delta" | "tool-arguments-delta">;

const key = (e: Located) => `${e.alternative ?? 0}:${e.index}`;
const isDelta = (e: StreamEvent): e is Delta =>
  e.type === "text-delta" || e.type === "thinking-delta" || e.type === "tool-arguments-delta";

/**
 * The normal form used to compare event sequences across formats, since formats chunk and order
 * the same content differently. It keeps content and meaning and drops only framing:
 * - one response-start (the first) and one provider-extras right after it, each provider's the
 *   last one said;
 * - part indices renumbered per output in order of first appearance;
 * - every part opened by part-start (text, thinking) or tool-call-start, closed by one part-end;
 * - adjacent deltas of one part merged, empty deltas dropped;
 * - a part's citations, in order, then its signature fragments joined into one signature-delta,
 *   just before its part-end;
 * - each output's logprobs joined into one event (average: the last one), then the last finish
 *   per output, then the last usage, at the end (errors stay where they were).
 */
export function normalizeStreamEvents(events: readonly StreamEvent[]): StreamEvent[] {
  let start: StreamEvent | undefined;
  let extras: StreamEventOf<"provider-extras"> | undefined;
  let usage: StreamEvent | undefined;
  const finishes = new Map<number, StreamEventOf<"finish">>();
  const logprobs = new Map<number, StreamEventOf<"logprobs">>();
  const renumber = new Map<string, number>();
  const nextIndex = new Map<number, number>();
  const opened = new Set<string>();
  const closed = new Set<string>();
  const signatures = new Map<string, string>();
  const citations = new Map<string, StreamEventOf<"citation">[]>();
  const body: StreamEvent[] = [];

  const locate = <E extends StreamEvent & Located>(e: E): E => {
    const k = key(e);
    let index = renumber.get(k);
    if (index === undefined) {
      const output = e.alternative ?? 0;
      index = nextIndex.get(output) ?? 0;
      nextIndex.set(output, index + 1);
      renumber.set(k, index);
    }
    const out = { ...e, index };
    if (out.alternative === undefined || out.alternative === 0) delete out.alternative;
    return out;
  };
  const open = (e: StreamEvent & Located, kind: "text" | "thinking") => {
    const k = key(e);
    if (opened.has(k)) return;
    opened.add(k);
    const at: Located = { index: e.index };
    if (e.alternative) at.alternative = e.alternative;
    body.push({ type: "part-start", ...at, kind });
  };
  const close = (e: Located) => {
    const k = key(e);
    if (closed.has(k)) return;
    closed.add(k);
    const signature = signatures.get(k);
    const at: Located = { index: e.index };
    if (e.alternative) at.alternative = e.alternative;
    for (const c of citations.get(k) ?? []) body.push({ ...c, ...at });
    if (signature !== undefined) body.push({ type: "signature-delta", ...at, signature });
    body.push({ type: "part-end", ...at });
  };

  for (const raw of events) {
    switch (raw.type) {
      case "response-start":
        start ??= raw;
        break;
      case "provider-extras":
        extras = {
          type: "provider-extras",
          providerExtras: { ...extras?.providerExtras, ...raw.providerExtras },
        };
        break;
      case "usage":
        usage = raw;
        break;
      case "finish":
        finishes.set(raw.alternative ?? 0, raw);
        break;
      case "error":
        body.push(raw);
        break;
      case "logprobs": {
        const output = raw.alternative ?? 0;
        const held = logprobs.get(output);
        const content = [...(held?.content ?? []), ...raw.content];
        const average = raw.average ?? held?.average;
        logprobs.set(output, {
          type: "logprobs",
          ...(output === 0 ? {} : { alternative: output }),
          content,
          ...(average === undefined ? {} : { average }),
        });
        break;
      }
      case "part-start": {
        const e = locate(raw);
        open(e, e.kind);
        break;
      }
      case "tool-call-start": {
        const e = locate(raw);
        if (!opened.has(key(e))) {
          opened.add(key(e));
          body.push(e);
        }
        break;
      }
      case "redacted-thinking": {
        const e = locate(raw);
        opened.add(key(e));
        body.push(e);
        break;
      }
      case "text-delta":
      case "thinking-delta":
      case "tool-arguments-delta": {
        if (raw.delta === "") break;
        const e = locate(raw);
        if (e.type !== "tool-arguments-delta")
          open(e, e.type === "text-delta" ? "text" : "thinking");
        const last = body[body.length - 1];
        if (last && isDelta(last) && last.type === e.type && key(last) === key(e)) {
          body[body.length - 1] = { ...last, delta: last.delta + e.delta };
        } else {
          body.push(e);
        }
        break;
      }
      case "signature-delta": {
        const e = locate(raw);
        signatures.set(key(e), (signatures.get(key(e)) ?? "") + e.signature);
        break;
      }
      case "citation": {
        const e = locate(raw);
        open(e, "text");
        citations.set(key(e), [...(citations.get(key(e)) ?? []), e]);
        break;
      }
      case "part-end":
        close(locate(raw));
        break;
    }
  }
  for (const k of opened) {
    if (!closed.has(k)) {
      const [alternative, index] = k.split(":").map(Number) as [number, number];
      close(alternative ? { index, alternative } : { index });
    }
  }

  const out: StreamEvent[] = [];
  if (start) out.push(start);
  if (extras) out.push(extras);
  out.push(...body);
  out.push(...[...logprobs.entries()].sort(([a], [b]) => a - b).map(([, l]) => l));
  out.push(...[...finishes.entries()].sort(([a], [b]) => a - b).map(([, f]) => f));
  if (usage) out.push(usage);
  return out;
}
