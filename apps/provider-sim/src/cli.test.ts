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

  it("--veo-polls 0 finishes Veo operations on the first poll", async () => {
    const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
    const child = spawn(process.execPath, [cli, "--port", "0", "--veo-polls", "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [line] = (await once(child.stdout!, "data")) as [Buffer];
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line.toString())?.[1];
      const headers = { "x-goog-api-key": "k", "content-type": "application/json" };
      const started = await fetch(
        `${url}/v1beta/models/veo-3.1-generate-preview:predictLongRunning`,
        {
          method: "POST",
          headers,
          body: JSON.stringify({ instances: [{ prompt: "a boat" }] }),
        },
      );
      const { name } = (await started.json()) as { name: string };
      const op = (await (await fetch(`${url}/v1beta/${name}`, { headers })).json()) as {
        done: boolean;
      };
      expect(op.done).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
    await once(child, "exit");
  });
});
