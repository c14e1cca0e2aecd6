import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, startStack } from "./stack.ts";
import { FAST_TASKS, mediaChannels } from "./tasks-support.ts";

// The dashboard (apps/dashboard, served at /dashboard) driven in Debian's chromium through
// playwright-core, against a gateway in front of the provider simulator. `.ci/run` installs
// chromium when it is missing; under CI a missing browser fails this suite instead of skipping it.
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
// The README's screenshots are rewritten with UPDATE_SCREENSHOTS=1; other runs still take every
// one (a page that cannot render fails here) but keep them in a temporary folder, so a test run
// leaves the checkout as it was.
const SHOTS = process.env["UPDATE_SCREENSHOTS"]
  ? new URL("../../dashboard/screenshots/", import.meta.url)
  : pathToFileURL(`${mkdtempSync(join(tmpdir(), "dashboard-shots-"))}/`);
const STEP_MS = 15_000;

if (!haveChromium && process.env["CI"]) {
  throw new Error(`chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium)`);
}

describe.skipIf(!haveChromium)("the dashboard in a real browser", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    stack = await startStack(
      {
        extraChannels: mediaChannels,
        admins: [KEY],
        pricing: {
          "txtA-5": { input: 1.25, output: 10 },
          "txtA-image-2": { per_request: 0.04 },
        },
      },
      { tasks: FAST_TASKS },
    );
    base = stack.gateway.url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      timeout: 30_000,
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(STEP_MS);
    page.on("dialog", (dialog) => void dialog.accept());
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const shot = (name: string) =>
    page.screenshot({ path: new URL(name, SHOTS).pathname, fullPage: true });
  const nav = async (label: string) => {
    await page.getByRole("link", { name: label, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: label }).waitFor();
  };

  it("serves its assets from the gateway with the right types and caching", async () => {
    const index = await fetch(`${base}/dashboard/keys`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("text/html");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    const html = await index.text();
    const script = html.match(/src="(\/dashboard\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`);
    expect(asset.headers.get("content-type")).toContain("text/javascript");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${base}/dashboard/assets/none.js`)).status).toBe(404);
    expect((await fetch(`${base}/dashboard/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${base}/dashboard/assets/%E0%A4%A.js`)).status).toBe(404);
    const bare = await fetch(`${base}/dashboard`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/dashboard/");
  });

  it("signs in, creates a key, shows its call, runs an image task and revokes the key", async () => {
    // Sign in with the keyboard only: the key field takes the focus first.
    await page.goto(`${base}/dashboard/`);
    await shot("sign-in.png");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key");
    await page.keyboard.type(KEY);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    // A new key, shown once.
    await nav("Keys");
    await page.getByLabel("Name").first().fill("e2e-key");
    await page.getByLabel("Quota (credits)").first().fill("50000000");
    await page.getByRole("button", { name: "Create key" }).click();
    const newKey = (await page.getByTestId("new-key").textContent())?.trim() ?? "";
    expect(newKey).toMatch(/^sk-/);
    await page.locator('tr[data-key-name="e2e-key"]').waitFor();
    await shot("keys.png");

    // A real call with it, outside the browser.
    const call = await postJson(
      `${base}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "hello from the dashboard test" }] },
      auth(newKey),
    );
    expect(call.status).toBe(200);

    // The call in the log and in the chart (usage rows are written in batches: reload until).
    await nav("Usage");
    const row = page.getByTestId("log").locator("tbody tr", { hasText: "e2e-key" });
    for (let i = 0; i < 30 && (await row.count()) === 0; i++) {
      await page.waitForTimeout(300);
      await page.reload();
      await page.getByTestId("log").waitFor();
    }
    await expect.poll(() => row.count(), { timeout: STEP_MS }).toBeGreaterThan(0);
    expect(await row.first().textContent()).toContain("txtA-5");
    await page.locator(".chart canvas").first().waitFor();
    expect(await page.locator(".chart canvas").count()).toBe(2);
    expect(await page.getByTestId("by-model").textContent()).toContain("txtA-5");
    // Filtering by key narrows the log to that key's calls.
    await page.getByLabel("Key name").fill("e2e-key");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect
      .poll(() => page.getByTestId("log").locator("tbody tr").count(), { timeout: STEP_MS })
      .toBe(1);
    await shot("usage.png");

    // An image task, submitted here, completed with its image shown.
    await nav("Tasks");
    await page.getByLabel("Prompt").fill("a red cube on a table");
    await page.getByRole("button", { name: "Submit" }).click();
    const image = page.locator('li[data-task-status="completed"] img.result').first();
    await image.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), {
        timeout: STEP_MS,
      })
      .toBeGreaterThan(0);
    await shot("tasks.png");

    // A stored response: listed, shown, deleted.
    const stored = await postJson(`${base}/v1/responses`, { model: "txtA-5", input: "remember" });
    expect(stored.status).toBe(200);
    const responseId = stored.json.data.id as string;
    await nav("Responses");
    const responseRow = page.locator("tr", { hasText: responseId });
    await responseRow.getByRole("button", { name: "View" }).click();
    await expect
      .poll(() => page.locator(`pre[data-response="${responseId}"]`).textContent(), {
        timeout: STEP_MS,
      })
      .toContain("remember");
    await responseRow.getByRole("button", { name: "Delete" }).click();
    await responseRow.waitFor({ state: "detached" });
    const gone = await fetch(`${base}/v1/responses/${responseId}`, { headers: auth() });
    expect(gone.status).toBe(404);

    // Admin: channel health and quotas.
    await nav("Admin");
    await page.getByTestId("channels").locator("tbody tr", { hasText: "oa-media" }).waitFor();
    // The users table fills after its own request: wait for the row, as for the channels.
    await page.getByTestId("users").locator("tbody tr", { hasText: "alice" }).waitFor();
    await shot("admin.png");

    // At 375 px wide the page does not scroll sideways (wide tables scroll in their own box).
    await page.setViewportSize({ width: 375, height: 800 });
    await nav("Usage");
    await page.getByTestId("log").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await shot("usage-375.png");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Limit the key (only the changed field is sent), then disable it: the gateway refuses it.
    await nav("Keys");
    const keyRow = page.locator('tr[data-key-name="e2e-key"]');
    await keyRow.getByRole("button", { name: "Limits" }).click();
    await page.locator(".edit").getByLabel("Requests / min").fill("30");
    await page.getByRole("button", { name: "Save limits" }).click();
    await keyRow.filter({ hasText: "30 rpm" }).waitFor();
    await keyRow.getByRole("button", { name: "Disable" }).click();
    // The status attribute, not the row's text: "Disable" + "Delete" reads as "disabled".
    await page.locator('tr[data-key-name="e2e-key"][data-status="disabled"]').waitFor();
    const disabled = await postJson(
      `${base}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "disabled?" }] },
      auth(newKey),
    );
    expect(disabled.status).toBe(401);
    await keyRow.getByRole("button", { name: "Enable" }).click();
    await page.locator('tr[data-key-name="e2e-key"][data-status="active"]').waitFor();

    // Revoke the key: it disappears and the gateway refuses it.
    await keyRow.getByRole("button", { name: "Delete" }).click();
    await keyRow.waitFor({ state: "detached" });
    const refused = await postJson(
      `${base}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "still there?" }] },
      auth(newKey),
    );
    expect(refused.status).toBe(401);
  });

  it("shows no admin section to a key that is not an admin", async () => {
    const created = await postJson(`${base}/api/token`, { name: "plain", remain_quota: 1000 });
    const plainKey = (created.json as { data: { key: string } }).data.key;
    const fresh = await browser.newPage();
    try {
      await fresh.goto(`${base}/dashboard/`);
      await fresh.getByLabel("API key").fill(plainKey);
      await fresh.getByRole("button", { name: "Sign in" }).click();
      await fresh.getByRole("heading", { level: 1, name: "Usage" }).waitFor({ timeout: STEP_MS });
      expect(await fresh.getByRole("link", { name: "Admin" }).count()).toBe(0);
      const admin = await fetch(`${base}/api/admin/channels`, { headers: auth(plainKey) });
      expect(admin.status).toBe(403);
    } finally {
      await fresh.close();
    }
  });
});
