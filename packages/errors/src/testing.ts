/**
 * fast-check arbitraries for GatewayError, for property tests here and in the packages that
 * render or parse errors. Optional fields are omitted rather than set to undefined.
 */
import fc from "fast-check";
import { constructorsByStatus, type GatewayErrorExtras } from "./constructors.js";
import { GatewayError } from "./gateway-error.js";
import { type GatewayStatus, gatewayStatuses } from "./gateway-status.js";

export { fc };

/** A status of docs/api-reference.md's table. */
export const gatewayStatus: fc.Arbitrary<GatewayStatus> = fc.constantFrom(...gatewayStatuses);

/** Any 4xx or 5xx, biased towards the table's rows. */
export const errorStatus: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: gatewayStatus },
  { weight: 1, arbitrary: fc.integer({ min: 400, max: 599 }) },
);

const text = (minLength = 0) => fc.string({ unit: "grapheme", minLength, maxLength: 60 });
const identifier = fc.stringMatching(/^[a-z][a-z0-9_.]{0,30}$/);

const extras: fc.Arbitrary<GatewayErrorExtras> = fc.record(
  {
    code: identifier,
    param: identifier,
    retryAfterSeconds: fc.integer({ min: 0, max: 86_400 }),
  },
  { requiredKeys: [] },
);

/** An error as the constructors build it: `type` is the table's type for its status. */
export const canonicalGatewayError: fc.Arbitrary<GatewayError> = fc
  .tuple(gatewayStatus, text(), extras)
  .map(([status, message, more]) => constructorsByStatus[status](message, more));

/** Any error at all: any error status, any non-empty type. */
export const gatewayError: fc.Arbitrary<GatewayError> = fc.oneof(
  canonicalGatewayError,
  fc
    .tuple(errorStatus, text(1), text(), extras)
    .map(([status, type, message, more]) => new GatewayError({ ...more, status, type, message })),
);

/** Request ids as the gateway issues them. */
export const requestId: fc.Arbitrary<string> = fc.stringMatching(/^req_[A-Za-z0-9]{1,24}$/);

/**
 * Any body an upstream may answer with: any value, JSON, text, and objects shaped like each
 * provider's error with anything inside. The error readers must never throw on one.
 */
export const upstreamErrorBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  fc.json(),
  fc.string(),
  fc.record({ error: fc.anything() }),
  fc.record({ type: fc.constant("error"), error: fc.anything() }),
  fc.record({
    error: fc.record({
      code: fc.anything(),
      message: fc.anything(),
      status: fc.anything(),
      details: fc.anything(),
    }),
  }),
);

/** Provider API keys in their real shapes (OpenAI, Anthropic, Google), which must never be quoted. */
export const providerApiKey: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("sk-", "sk-proj-", "sk-ant-api03-"),
      fc.stringMatching(/^[A-Za-z0-9_-]{20,60}$/),
    )
    .map(([prefix, rest]) => prefix + rest),
  fc.stringMatching(/^[A-Za-z0-9_-]{35}$/).map((rest) => `AIza${rest}`),
);

/** A message quoting `key` amid any text, as a provider's error message might. */
export const messageQuoting = (key: string): fc.Arbitrary<string> =>
  fc
    .tuple(fc.string(), fc.constantFrom(" ", ": ", "=", "'", '"', "(", "\n", "key="), fc.string())
    .map(([before, separator, after]) => `${before}${separator}${key} ${after}`);
