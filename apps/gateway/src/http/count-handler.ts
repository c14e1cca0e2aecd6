import type { Request as CanonicalRequest, Warning } from "@interlingua/core-types";
import { authenticate } from "../auth/authenticate.ts";
import {
  boundedDepth,
  ENVELOPE_HEADER,
  type HeaderWarning,
  isStrict,
  parseJsonObject,
  shouldWrap,
  upstreamModelHeader,
  warningsHeaders,
  wrapJsonText,
} from "../contract/client-contract.ts";
import type { EndpointSpec } from "../contract/endpoints.ts";
import { errorResponse } from "../contract/error-response.ts";
import { ESTIMATED, estimateCount } from "../count/estimate-count.ts";
import { counts, forwardCount } from "../count/forward-count.ts";
import { requestLog } from "../log/request-log.ts";
import { inlineFiles, namesFiles } from "../pipeline/inline-files.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import { routeForEndpoint } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { CLIENT_PROTOCOLS, PROTOCOLS } from "../upstream/protocols.ts";
import { CLIENT_READING, type GenerationCall } from "./generation-handler.ts";
import { parseCountTarget } from "./native-target.ts";
import { answerThrown } from "./route-envelope.ts";

const JSON_HEADERS = { "content-type": "application/json" };
/** What the codec reads as the model of a count that names none (never routed). */
const UNNAMED_MODEL = "default";

/**
 * A token-counting endpoint (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`,
 * `{model}:countTokens`): authenticated and rate-limited as its generation endpoint, its body
 * read by the same codec (so refused alike, in the same envelope), then counted by the model's
 * channel when its provider counts (its own endpoint), else estimated by the gateway and said so
 * (`x-interlingua-warnings: input_tokens=estimated`). Counting is free: nothing is reserved or
 * charged.
 */
export function answerCount(services: GatewayServices, endpoint: EndpointSpec) {
  const handle = handleCount(services, endpoint);
  const { errors, name } = endpoint;
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    try {
      return await handle(call);
    } catch (thrown) {
      const at = { requestId: call.requestId, url: call.url, errors, endpoint: `${name}.count` };
      return answerThrown(services.log, thrown, at);
    }
  };
}

function handleCount(services: GatewayServices, endpoint: EndpointSpec) {
  const reading = CLIENT_READING[endpoint.format];
  const counting = CLIENT_PROTOCOLS[endpoint.format].tokenCount;
  if (counting === undefined) throw new Error(`the ${endpoint.format} format has no count`);
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    const started = performance.now();
    const { requestId, url, headers } = call;
    const log = requestLog(services.log, { requestId, endpoint: `${endpoint.name}.count` });
    const token = await authenticate(services, endpoint.credentials, headers, url);
    const body = boundedDepth(
      parseJsonObject(await call.readBody(services.config.limits.max_body_bytes)),
    );
    let wire = counting.generation(body);
    // Where the provider counts for its default model, so does the gateway: by estimate.
    const unnamed = counting.modelOptional && wire["model"] == null;
    if (unnamed) wire = { ...wire, model: UNNAMED_MODEL };
    let notes: Warning[] = [];
    if (reading.state !== undefined) {
      // Stored history is read, never written: a count keeps nothing (`store: false`).
      const state = await reading.state(services, token.userId, { ...wire, store: false });
      wire = state.wire;
      notes = state.warnings ?? [];
    }
    const model = call.target === undefined ? undefined : parseCountTarget(call.target);
    const target =
      model === undefined
        ? undefined
        : { model, method: "generateContent" as const, stream: false };
    // Nothing is generated: no output budget, no stream.
    let canonical = forCounting(reading.parse(wire, target));
    const wrap = shouldWrap(
      endpoint.wrapped,
      services.config.envelope,
      headers.get(ENVELOPE_HEADER),
    );
    const reply = (text: string, said: readonly HeaderWarning[], upstreamModel?: string) =>
      new TextReply(
        200,
        {
          ...JSON_HEADERS,
          ...warningsHeaders(said),
          ...(upstreamModel === undefined ? {} : upstreamModelHeader(upstreamModel)),
        },
        wrap ? wrapJsonText(text) : text,
      );
    const estimate = (channel?: string) => {
      const tokens = estimateCount(canonical);
      const ms = Math.round(performance.now() - started);
      log.info({ model: canonical.model, channel, tokens, estimated: true, ms }, "tokens counted");
      return reply(JSON.stringify(counting.reply(tokens)), [...notes, ESTIMATED]);
    };
    if (unnamed) return estimate();

    const route = routeForEndpoint(services.router, token.models, canonical.model, endpoint.format);
    if (!route.candidates.some(counts)) return estimate();
    if (namesFiles(canonical)) canonical = await inlineFiles(services, token.userId, canonical);
    const candidates = services.router.plan(route).filter(counts);
    const result = await forwardCount(
      services,
      {
        endpoint,
        wire,
        canonical,
        upstream: reading.upstream(headers),
        strict: isStrict(headers),
        signal: call.signal,
        source: String(token.id),
        notes,
      },
      candidates,
    );
    const ms = Math.round(performance.now() - started);
    if (!result.ok) {
      const { error, attempts } = result;
      log.info(
        { model: canonical.model, status: error.status, error: error.message, attempts, ms },
        "token count failed",
      );
      return errorResponse(endpoint.errors, error, requestId);
    }
    const { candidate, tokens, text, warnings } = result.counted;
    log.info(
      {
        model: canonical.model,
        channel: candidate.channel.name,
        tokens,
        attempts: result.attempts,
        ms,
      },
      "tokens counted",
    );
    // A client of the provider's own format gets its reply as sent (every detail it gave).
    const own = PROTOCOLS[candidate.channel.protocol].format === endpoint.format;
    const said = own ? text : JSON.stringify(counting.reply(tokens));
    const redacted = services.redactor.active ? services.redactor.redact(said) : said;
    return reply(redacted, warnings, candidate.upstreamModel);
  };
}

/**
 * A request as counted: its prompt, without sampling (an output budget, a temperature: none
 * changes the prompt, and no provider's count takes them) and without a stream.
 */
function forCounting(request: CanonicalRequest): CanonicalRequest {
  return { ...request, sampling: {}, stream: false };
}
