import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("node src/cli.ts", () => {
  it("starts the simulator, prints its URL and stops on SIGTERM", async () => {
    const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
    const child = spawn(process.execPath, [cli, "--port", "0", "--keys", "k1"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [line] = (await once(child.stdout!, "data")) as [Buffer];
      const url = /provider-sim listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(
        line.toString(),
      )?.[1];
      expect(url).toBeDefined();
      expect(
        (await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer k1" } })).status,
      ).toBe(200);
      expect(
        (await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer k2" } })).status,
      ).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});
