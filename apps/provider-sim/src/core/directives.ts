// Directives are `[[name]]` or `[[name:argument]]` markers in the last user text. They let a test
// choose the simulator's behaviour through any client, gateway or SDK that forwards the prompt.

export type Directives = {
  /** The user text with the recognised directives removed and trimmed. */
  text: string;
  /** `[[tool:NAME]]`, one entry per marker. */
  toolNames: string[];
  /** `[[tool]]` = 1, `[[tools:N]]` = N: call the first N declared tools. */
  toolCount: number;
  /** `[[len:N]]`: reply with N words. */
  words: number | undefined;
  /** `[[max]]`: stop as if max tokens were reached. */
  max: boolean;
  /** `[[think]]`: produce visible thinking even without the thinking parameter. */
  think: boolean;
  /** `[[replay:PATH]]`: answer with that recording, relative to the fixtures folder. */
  replay: string | undefined;
  /** `[[fault:SPEC]]`: same grammar as the `x-sim-fault` header. */
  fault: string | undefined;
  /** `[[fail]]`: a Veo operation finishes with an error; an OpenAI image request is a 500. */
  fail: boolean;
  /** `[[polls:N]]`: a Veo operation answers `done: false` to N polls. */
  polls: number | undefined;
  /**
   * `[[safety]]` (= "") or `[[safety:ARG]]`: a media request is blocked by the simulated safety
   * system; each endpoint reads ARG its own way (a count, a reason, `prompt`).
   */
  safety: string | undefined;
};

const MAX_WORDS = 100_000;
const MARKER = /\[\[([a-z]+)(?::([^\]]*))?\]\]/g;

function count(argument: string | undefined, cap: number): number | undefined {
  const n = Number(argument);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, cap) : undefined;
}

const APPLY: Record<string, (d: Directives, argument: string | undefined) => boolean> = {
  tool: (d, argument) => {
    if (argument) d.toolNames.push(argument.trim());
    else d.toolCount = Math.max(d.toolCount, 1);
    return true;
  },
  tools: (d, argument) => {
    d.toolCount = Math.max(d.toolCount, count(argument, 128) ?? 1);
    return true;
  },
  len: (d, argument) => {
    d.words = count(argument, MAX_WORDS);
    return d.words !== undefined;
  },
  max: (d) => {
    d.max = true;
    return true;
  },
  think: (d) => {
    d.think = true;
    return true;
  },
  replay: (d, argument) => {
    d.replay = argument?.trim();
    return Boolean(d.replay);
  },
  fault: (d, argument) => {
    if (!argument) return false;
    d.fault = d.fault ? `${d.fault},${argument}` : argument;
    return true;
  },
  fail: (d) => {
    d.fail = true;
    return true;
  },
  polls: (d, argument) => {
    d.polls = count(argument, 10_000);
    return d.polls !== undefined;
  },
  safety: (d, argument) => {
    d.safety = argument?.trim() ?? "";
    return true;
  },
};

export function parseDirectives(userText: string): Directives {
  const d: Directives = {
    text: userText,
    toolNames: [],
    toolCount: 0,
    words: undefined,
    max: false,
    think: false,
    replay: undefined,
    fault: undefined,
    fail: false,
    polls: undefined,
    safety: undefined,
  };
  // Fast path: most benchmark prompts carry no directive.
  if (!userText.includes("[[")) {
    d.text = userText.trim();
    return d;
  }
  d.text = userText
    .replace(MARKER, (marker, name: string, argument: string | undefined) => {
      const apply = APPLY[name];
      return apply?.(d, argument) ? "" : marker;
    })
    .replace(/[ \t]{2,}/g, " ")
    .trim();
  return d;
}
