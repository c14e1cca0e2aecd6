import { randomBytes } from "node:crypto";
import { createConnection } from "node:net";
import { IN_CI } from "./storage/drivers.ts";

/** The local Redis of the tests (127.0.0.1:6379, or TEST_REDIS_URL). */
export const REDIS_URL = process.env["TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";

/** A key prefix of its own per test: runs sharing the Redis never see each other's keys. */
export const newRedisPrefix = (what = "t"): string =>
  `interlingua-test-${what}-${randomBytes(6).toString("hex")}`;

/** Whether Redis answers PING; in CI an unreachable Redis fails the run instead of skipping. */
export async function redisReachable(what: string): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  const answered = await new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
  if (answered) return true;
  const reason = `Redis at ${REDIS_URL} is unreachable`;
  if (IN_CI) throw new Error(`${reason}: CI must run the ${what} tests (set TEST_REDIS_URL).`);
  console.warn(`\n!!! ${reason}: the ${what} tests are SKIPPED.\n`);
  return false;
}
