/**
 * Every recorded upstream stream, decoded with its own codec, encoded as each other client
 * format's SSE bytes and decoded again, loses nothing that format carries: text, thinking, tool
 * calls (ids, names, JSON arguments), signatures, finish reasons, usage and errors. Both the
 * accumulated response and the normalised event sequence are compared whole; the only exclusions
 * are the per-format tables of carried-by-format.ts (from the loss tables) and the framing notes
 * below.
 */
import {
  accumulateStream,
  normalizeStreamEvents,
  outputsOf,
  type Response,
  type StreamEvent,
  type StreamEventOf,
  type Usage,
} from "@interlingua/core-types";
import { messagesErrorStatus, messagesErrorType } from "@interlingua/fmt-messages/tables";
import { describe, expect, it } from "vitest";
import {
  argumentsAsObject,
  errorCarriesStatus,
  errorEndsStream,
  type Format,
  finishExtraOf,
  finishExtras,
  type PartKind,
  signedKinds,
  startOnlyUsage,
  streamOf,
  tierAs,
  tierWhenNone,
  type UsageView,
  usageAtEnd,
  usageFields,
  usageView,
} from "./carried-by-format.js";
import { codecs, decodeWire, throughWire } from "./codecs.js";
import { type Recording, recordingFolders, recordings } from "./recordings.js";

type ErrorBody = StreamEventOf<"error">["error"];

const cases = recordings().flatMap((recording) => {
  const source = recordingFolders[recording.folder];
  return (Object.keys(codecs) as Format[])
    .filter((target) => streamOf(target) !== source)
    .map((target) => ({ name: `${recording.file} -> ${target}`, recording, source, target }));
});

describe("every recording through every other client format", () => {
  it("finds the recordings of all four providers", () => {
    const folders = new Set(cases.map((c) => c.recording.folder));
    expect([...folders].sort()).toEqual(Object.keys(recordingFolders).sort());
  });

  it.each(cases)("$name", async ({ recording, source, target }) => {
    const original = await decodeRecording(recording, source);
    const redecoded = await throughWire(codecs[target]!, original);
    // What the target can carry of the original: everything up to the first error when an error
    // ends the target's stream; the rest is compared through the views.
    const expected = errorEndsStream.has(target) ? upToFirstError(original) : original;

    expect(accumulated(redecoded, source, target, expected)).toEqual(
      accumulated(expected, source, target, expected),
    );
    expect(sequence(redecoded, target)).toEqual(sequence(expected, target));
    expectSameErrors(errorsOf(redecoded), errorsOf(expected), target);
    expectNoSignatureBeyond(redecoded, target);
  });
});

async function decodeRecording(recording: Recording, source: Format): Promise<StreamEvent[]> {
  const events = await decodeWire(codecs[source]!, recording.sse);
  // Guard against a vacuous comparison: every recording ends in a finish (with or without parts:
  // the refusal has none) or carries an error.
  const finished = outputsOf(accumulateStream(events)).filter(
    (c) => c.finishReason.raw !== undefined,
  );
  expect(finished.length + errorsOf(events).length).toBeGreaterThan(0);
  return events;
}

function upToFirstError(events: StreamEvent[]): StreamEvent[] {
  const first = events.findIndex((e) => e.type === "error");
  return first === -1 ? events : events.slice(0, first + 1);
}

/** The kind of each part, keyed `choice:index`, in the event numbering given. */
function partKinds(events: readonly StreamEvent[]): Map<string, PartKind> {
  const kinds = new Map<string, PartKind>();
  for (const e of events) {
    const at = "index" in e ? `${e.alternative ?? 0}:${e.index}` : "";
    if (e.type === "part-start") kinds.set(at, e.kind);
    else if (e.type === "tool-call-start") kinds.set(at, "tool-call");
    else if (e.type === "redacted-thinking") kinds.set(at, "redacted-thinking");
    else if (e.type === "text-delta" && !kinds.has(at)) kinds.set(at, "text");
    else if (e.type === "thinking-delta" && !kinds.has(at)) kinds.set(at, "thinking");
  }
  return kinds;
}

/** The same JSON value, serialised one way (for targets that carry arguments as an object). */
function sameJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/**
 * Native has no tool-calls finish reason: its decoder reads STOP on a candidate that made
 * function calls as tool-calls (fmt-native README, "Finish reasons"), so a stream that called
 * tools and then stopped comes back as tool-calls.
 */
function expectedUnified(unified: string, madeCalls: boolean, target: Format): string {
  return argumentsAsObject.has(target) && unified === "stop" && madeCalls ? "tool-calls" : unified;
}

function pickUsage(usage: Usage, source: Format, target: Format) {
  const out: Partial<UsageView> = {};
  const view = usageView(usage);
  const late = usageAtEnd.has(source) ? startOnlyUsage[target] : [];
  for (const field of usageFields[target]) {
    if (late.includes(field)) continue;
    if (usageFields[source].includes(field) && view[field] !== undefined) {
      Object.assign(out, { [field]: view[field] });
    }
  }
  const fallback = tierWhenNone[target];
  const carried = usageFields[source].includes("serviceTier") && !late.includes("serviceTier");
  if (fallback !== undefined && carried) out.serviceTier ??= fallback;
  if (out.serviceTier !== undefined) {
    const tier = tierAs[target](out.serviceTier);
    if (tier === undefined) delete out.serviceTier;
    else out.serviceTier = tier;
  }
  return out;
}

/**
 * The accumulated response as the target can carry it: id, model, parts (signatures only where
 * the target keeps them, arguments as JSON values where it sends objects), finish, usage. The
 * creation time is not compared (the messages format has none).
 */
function accumulated(
  events: StreamEvent[],
  source: Format,
  target: Format,
  expected: StreamEvent[],
) {
  const response: Response = JSON.parse(JSON.stringify(accumulateStream(events)));
  const outputs = outputsOf(response).map((choice) => {
    const parts = choice.message.parts.map((part) => {
      const out = { ...part };
      if ("signature" in out && !signedKinds[target].has(out.type as PartKind))
        delete out.signature;
      if (out.type === "tool-call" && argumentsAsObject.has(target))
        out.arguments = sameJson(out.arguments);
      return out;
    });
    const madeCalls = parts.some((p) => p.type === "tool-call");
    const view: Record<string, unknown> = {
      index: choice.index,
      parts,
      finish: expectedUnified(choice.finishReason.unified, madeCalls, target),
    };
    for (const key of finishExtras[target]) {
      const value = finishExtraOf[key](choice);
      if (value !== undefined) view[key] = value;
    }
    return view;
  });
  // A native frame names the response only on candidate and usage chunks: a stream that is
  // nothing but an error has no frame to carry its id and model.
  const onlyErrors = expected.every((e) => e.type === "response-start" || e.type === "error");
  const named =
    argumentsAsObject.has(target) && onlyErrors ? {} : { id: response.id, model: response.model };
  return { ...named, outputs, usage: pickUsage(response.usage, source, target) };
}

/**
 * The normalised event sequence as the target carries it. response-start and usage are framing
 * here (normalisation puts them first and last) and are compared on the accumulated response;
 * errors are compared by expectSameErrors.
 */
function sequence(events: StreamEvent[], target: Format) {
  const normal = normalizeStreamEvents(events);
  const kinds = partKinds(normal);
  const madeCalls = new Set(
    normal.flatMap((e) => (e.type === "tool-call-start" ? [e.alternative ?? 0] : [])),
  );
  return normal.flatMap((e): unknown[] => {
    switch (e.type) {
      case "response-start":
      case "usage":
        return [];
      case "error":
        return [{ type: "error" }];
      case "signature-delta": {
        const kind = kinds.get(`${e.alternative ?? 0}:${e.index}`);
        return kind !== undefined && signedKinds[target].has(kind) ? [e] : [];
      }
      case "tool-arguments-delta":
        return [argumentsAsObject.has(target) ? { ...e, delta: sameJson(e.delta) } : e];
      case "finish": {
        const view: Record<string, unknown> = {
          type: e.type,
          unified: expectedUnified(
            e.finishReason.unified,
            madeCalls.has(e.alternative ?? 0),
            target,
          ),
        };
        if (e.alternative !== undefined) view.alternative = e.alternative;
        for (const key of finishExtras[target]) {
          const value = finishExtraOf[key](e);
          if (value !== undefined) view[key] = value;
        }
        return [view];
      }
      default:
        return [e];
    }
  });
}

function errorsOf(events: readonly StreamEvent[]): ErrorBody[] {
  return events.flatMap((e) => (e.type === "error" ? [e.error] : []));
}

/**
 * Errors keep status and type (for messages: the Anthropic type the status maps to, and the status
 * that type stands for) and their message. Decoders read an in-stream error as the upstream's and
 * pass it through their protocol's error parser, which may prefix a server fault with
 * "Upstream provider error (<status>): ", so the original message must be the whole message or
 * follow that one prefix.
 */
function expectSameErrors(got: ErrorBody[], want: ErrorBody[], target: Format) {
  expect(got.length).toBe(want.length);
  want.forEach((original, i) => {
    const error = got[i]!;
    if (errorCarriesStatus.has(target)) {
      expect({ status: error.status, type: error.type }).toEqual({
        status: original.status,
        type: original.type,
      });
    } else {
      const type = messagesErrorType(original);
      expect({ status: error.status, type: error.type }).toEqual({
        status: messagesErrorStatus(type),
        type,
      });
    }
    expect([
      original.message,
      `Upstream provider error (${original.status}): ${original.message}`,
    ]).toContain(error.message);
  });
}

/** The signedKinds table must not hide a signature the target could have carried. */
function expectNoSignatureBeyond(events: StreamEvent[], target: Format) {
  const kinds = partKinds(events);
  const unexpected = events.filter(
    (e) =>
      e.type === "signature-delta" &&
      !signedKinds[target].has(kinds.get(`${e.alternative ?? 0}:${e.index}`) ?? "text"),
  );
  expect(unexpected).toEqual([]);
}
