import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, type Stack, startStack } from "./stack.ts";

// The routes behind `requireKey` (http/require-key.ts): a refused key, and a refusal the route
// throws, answer in each route's own envelope through the app's one error handler, byte for byte.

const RATE_LIMITED = "sk-test-one-a-minute";

const STANDARD_401 =
  '{"error":{"code":401,"message":"missing API key","type":"authentication_error"}}';
const MANAGEMENT_401 = '{"success":false,"message":"missing API key","data":null}';
const UPLOAD_401 = '{"error":{"message":"missing API key","type":"authentication_error"}}';

/** One route of each family, with its body on a missing key and on a rate-limited one. */
const ROUTES: { method: string; path: string; missing: string; limited: (s: number) => string }[] =
  [
    {
      method: "GET",
      path: "/v1/models",
      missing: STANDARD_401,
      limited: (s) =>
        `{"error":{"code":429,"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error"}}`,
    },
    {
      method: "GET",
      path: "/v1/balance",
      missing: STANDARD_401,
      limited: (s) =>
        `{"error":{"code":429,"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error"}}`,
    },
    {
      method: "GET",
      path: "/api/user/self",
      missing: MANAGEMENT_401,
      limited: (s) =>
        `{"success":false,"message":"rate limit reached for this API key; retry after ${s} s","data":null}`,
    },
    {
      method: "POST",
      path: "/api/webhook/secret/rotate",
      missing: MANAGEMENT_401,
      limited: (s) =>
        `{"success":false,"message":"rate limit reached for this API key; retry after ${s} s","data":null}`,
    },
    {
      method: "POST",
      path: "/v1/uploads/images",
      missing: UPLOAD_401,
      limited: (s) =>
        `{"error":{"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error","code":429}}`,
    },
    {
      method: "POST",
      path: "/v1/audio/speech",
      missing: STANDARD_401,
      limited: (s) =>
        `{"error":{"code":429,"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error"}}`,
    },
    {
      method: "GET",
      path: "/v1/tasks/task_x",
      missing: STANDARD_401,
      limited: (s) =>
        `{"error":{"code":429,"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error"}}`,
    },
    {
      method: "DELETE",
      path: "/v1/responses/resp_x",
      missing: STANDARD_401,
      limited: (s) =>
        `{"error":{"code":429,"message":"rate limit reached for this API key; retry after ${s} s","type":"rate_limit_error"}}`,
    },
  ];

describe("routes behind requireKey", () => {
  let stack: Stack;
  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.gateway.url}${path}`, {
      method,
      headers: method === "POST" ? { ...headers, "content-type": "application/json" } : headers,
      ...(method === "POST" ? { body: "{}" } : {}),
    });

  beforeAll(async () => {
    stack = await startStack({
      tokens: [
        { key: KEY, user: "alice", unlimited: true },
        { key: RATE_LIMITED, user: "alice", unlimited: true, rate_limit: { rpm: 1 } },
      ],
    });
  });
  afterAll(() => stack.close());

  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: a missing key in the route's envelope`, async () => {
      const reply = await call(route.method, route.path);
      expect(reply.status).toBe(401);
      expect(reply.headers.get("content-type")).toBe("application/json");
      expect(reply.headers.get("retry-after")).toBeNull();
      expect(reply.headers.get("x-request-id")).toMatch(/^req_/);
      expect(await reply.text()).toBe(route.missing);
    });
  }

  it("a rate-limited key: 429 with Retry-After, in each route's envelope", async () => {
    // The first call is admitted; every later one within the minute is refused.
    expect((await call("GET", "/v1/models", auth(RATE_LIMITED))).status).toBe(200);
    for (const route of ROUTES) {
      const reply = await call(route.method, route.path, auth(RATE_LIMITED));
      expect(reply.status, route.path).toBe(429);
      const seconds = Number(reply.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(await reply.text()).toBe(route.limited(seconds));
    }
  });

  it("a refusal the route throws answers in the route's envelope", async () => {
    const cases = [
      [
        "/api/token/abc",
        400,
        '{"success":false,"message":"id: must be a positive integer","data":null}',
      ],
      [
        "/api/admin/users",
        403,
        '{"success":false,"message":"this key is not an admin key","data":null}',
      ],
      [
        "/v1/tasks/bad-id",
        400,
        '{"error":{"code":400,"message":"invalid task id: bad-id","type":"invalid_request_error","param":"task_id"}}',
      ],
      [
        "/v1/responses/resp_nope",
        404,
        `{"error":{"code":404,"message":"Response with id 'resp_nope' not found.","type":"not_found_error"}}`,
      ],
    ] as const;
    for (const [path, status, body] of cases) {
      const reply = await call("GET", path, auth());
      expect(reply.status, path).toBe(status);
      expect(reply.headers.get("content-type")).toBe("application/json");
      expect(await reply.text()).toBe(body);
    }
    const upload = await fetch(`${stack.gateway.url}/v1/uploads/images`, {
      method: "POST",
      headers: auth(),
      body: new FormData(),
    });
    expect(upload.status).toBe(400);
    expect(await upload.text()).toBe(
      '{"error":{"message":"missing file field","type":"invalid_request_error"}}',
    );
  });
});
