import type { ToolChoice } from "@interlingua/core-types";
import type { NativeFunctionCallingConfig } from "./native-api.js";

type Mode = NonNullable<NativeFunctionCallingConfig["mode"]>;
/** The two fields of functionCallingConfig that toolChoice stands for. */
export interface NativeFunctionCalling {
  mode?: Mode;
  allowedFunctionNames?: string[];
}

/** mode -> canonical tool choice. VALIDATED behaves as AUTO with schema-checked calls. */
const modeTable: Readonly<Record<Mode, "auto" | "required" | "none" | undefined>> = {
  AUTO: "auto",
  ANY: "required",
  NONE: "none",
  VALIDATED: "auto",
  MODE_UNSPECIFIED: undefined,
};

const choiceTable: Readonly<Record<ToolChoice["type"], Mode>> = {
  auto: "AUTO",
  none: "NONE",
  required: "ANY",
  tool: "ANY",
};

/** The modes Gemini takes allowedFunctionNames with; names with another mode are not read. */
const takesNames: Readonly<Partial<Record<Mode, true>>> = { ANY: true, VALIDATED: true };

/**
 * ANY restricted to one function is "call this tool", to several "call one of these" (`required`
 * with `allowed`); VALIDATED with names is `auto` with `allowed` (OpenAI `allowed_tools` auto).
 * Names with another mode have no canonical form (the parser keeps them).
 */
export function parseNativeToolChoice(config: NativeFunctionCalling): ToolChoice | undefined {
  const type = config.mode === undefined ? undefined : modeTable[config.mode];
  if (type === undefined) return undefined;
  const names = config.allowedFunctionNames;
  if (type === "none" || !names?.length || !takesNames[config.mode as Mode]) return { type };
  if (type === "required" && names.length === 1) return { type: "tool", name: names[0] as string };
  return { type, allowed: [...names] };
}

/**
 * allowedFunctionNames is valid with ANY only: `auto` with `allowed` renders AUTO, the function
 * declarations being cut to the allowed ones instead (`allowedDeclarations`).
 */
export function renderNativeToolChoice(choice: ToolChoice): NativeFunctionCalling {
  const out: NativeFunctionCalling = { mode: choiceTable[choice.type] };
  if (choice.type === "tool") out.allowedFunctionNames = [choice.name];
  if (choice.type === "required" && choice.allowed) out.allowedFunctionNames = [...choice.allowed];
  return out;
}

const sameNames = (a: string[] | undefined, b: string[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.join("\u0000") === b.join("\u0000"));

/** Whether rendering the derived choice gives the given config back (else the parser keeps it). */
export function isReversibleFunctionCalling(config: NativeFunctionCalling): boolean {
  const choice = parseNativeToolChoice(config);
  if (choice === undefined) return config.mode === undefined && !config.allowedFunctionNames;
  const back = renderNativeToolChoice(choice);
  return (
    back.mode === config.mode && sameNames(back.allowedFunctionNames, config.allowedFunctionNames)
  );
}

export function sameToolChoice(a: ToolChoice | undefined, b: ToolChoice | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === "tool") return b.type === "tool" && a.name === b.name;
  const names = (c: ToolChoice) =>
    c.type === "auto" || c.type === "required" ? c.allowed : undefined;
  return sameNames(names(a), names(b));
}
