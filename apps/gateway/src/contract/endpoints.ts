import type { WireFormat } from "@interlingua/core-types";
import type { CredentialGroup } from "../auth/credential-sources.ts";

/** The error body family an endpoint answers with (docs/api-reference.md, Errors). */
export type ErrorStyle = "standard" | "messages" | "native";

export interface EndpointSpec {
  /** For logs and metrics. */
  readonly name: string;
  /** The client wire format (the codec that parses requests and renders replies). */
  readonly format: WireFormat;
  readonly credentials: CredentialGroup;
  /** Whether a successful non-stream body is wrapped as `{code: 200, data}` (docs/api-reference.md envelope table). */
  readonly wrapped: boolean;
  readonly errors: ErrorStyle;
}

export const ENDPOINTS = {
  chat: {
    name: "chat",
    format: "chat",
    credentials: "standard",
    wrapped: true,
    errors: "standard",
  },
  responses: {
    name: "responses",
    format: "responses",
    credentials: "standard",
    wrapped: true,
    errors: "standard",
  },
  messages: {
    name: "messages",
    format: "messages",
    credentials: "messages",
    wrapped: false,
    errors: "messages",
  },
  native: {
    name: "native",
    format: "native",
    credentials: "native",
    wrapped: true,
    errors: "native",
  },
} as const satisfies Record<string, EndpointSpec>;

/** Routes of the generation endpoints; native routes carry `{model}:{method}` as their last segment. */
export const GENERATION_ROUTES: { path: string; endpoint: EndpointSpec }[] = [
  { path: "/v1/chat/completions", endpoint: ENDPOINTS.chat },
  { path: "/api/v1/chat/completions", endpoint: ENDPOINTS.chat },
  { path: "/v1/responses", endpoint: ENDPOINTS.responses },
  { path: "/v1/messages", endpoint: ENDPOINTS.messages },
  { path: "/v1beta/models/:target", endpoint: ENDPOINTS.native },
  { path: "/v1/models/:target", endpoint: ENDPOINTS.native },
];

/**
 * Routes of the token-counting endpoints, each in its generation endpoint's format, credentials
 * and envelope (Anthropic `count_tokens`, OpenAI `input_tokens`, Gemini `{model}:countTokens`).
 * Native ones share their generation route's path: the `{model}:{method}` segment says which.
 */
export const COUNT_ROUTES: { path: string; endpoint: EndpointSpec }[] = [
  { path: "/v1/messages/count_tokens", endpoint: ENDPOINTS.messages },
  { path: "/v1/responses/input_tokens", endpoint: ENDPOINTS.responses },
  { path: "/v1beta/models/:target", endpoint: ENDPOINTS.native },
  { path: "/v1/models/:target", endpoint: ENDPOINTS.native },
];
