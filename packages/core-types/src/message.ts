import * as z from "zod/mini";
import { assistantPartSchema, toolResultPartSchema, userPartSchema } from "./content-part.js";
import { zObject } from "./zod-object.js";

/**
 * A conversation turn. System text is not a message: it lives on the request (`system`), because
 * two of the four formats cannot place it among the turns. Tool results form their own `tool`
 * turn; formats that carry them inside a user turn split and merge at their boundary.
 */
export const userMessageSchema = zObject({
  role: z.literal("user"),
  parts: z.array(userPartSchema),
  name: z.exactOptional(z.string()),
});
export type UserMessage = z.infer<typeof userMessageSchema>;

export const assistantMessageSchema = zObject({
  role: z.literal("assistant"),
  parts: z.array(assistantPartSchema),
  name: z.exactOptional(z.string()),
});
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;

export const toolMessageSchema = zObject({
  role: z.literal("tool"),
  parts: z.array(toolResultPartSchema),
});
export type ToolMessage = z.infer<typeof toolMessageSchema>;

export const messageSchema = z.discriminatedUnion("role", [
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);
export type Message = z.infer<typeof messageSchema>;
export type Role = Message["role"];
