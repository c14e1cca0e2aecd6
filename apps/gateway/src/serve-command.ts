import { parseArgs } from "node:util";
import type { GatewayConfig } from "./config/config-schema.ts";
import { loadConfigFile, validateConfig } from "./config/load-config.ts";
import { doctorCommand } from "./doctor/doctor.ts";
import { createLogger } from "./log/logger.ts";
import { type RunningGateway, startGateway } from "./start-gateway.ts";
import { describeStartupFailure } from "./startup-error.ts";
import { createTokenCommand, migrateCommand } from "./store-commands.ts";

const USAGE = `usage: interlingua serve [--config <file>]
       interlingua check --config <file>
       interlingua migrate [--config <file>]
       interlingua doctor [--config <file>]
       interlingua token create --user <id> (--quota <credits> | --unlimited) [--name <name>] [--config <file>]

  --config <file>   YAML or JSON config (also INTERLINGUA_CONFIG=<file>); without one the
                    gateway starts with embedded defaults and a built-in simulated upstream
  PORT=<n>          overrides listen.port`;

const COMMANDS = new Set(["serve", "check", "migrate", "doctor"]);

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Reads the config the CLI was pointed at, with PORT applied; errors name their paths. */
export async function resolveConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; config: GatewayConfig } | { ok: false; errors: string[] }> {
  const result = file === undefined ? validateConfig({}) : await loadConfigFile(file, env);
  if (!result.ok) return result;
  const portText = env["PORT"];
  if (portText === undefined || portText === "") return result;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return { ok: false, errors: [`PORT: must be an integer from 0 to 65535, got "${portText}"`] };
  }
  return { ok: true, config: { ...result.config, listen: { ...result.config.listen, port } } };
}

/**
 * `interlingua serve|check|migrate|token create`. Returns the running gateway, or an exit code
 * when there is nothing to keep running (1: bad config or a failed command, 2: bad usage, 0: done
 * or help).
 */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = consoleIo,
): Promise<RunningGateway | number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: "string", short: "c" },
        help: { type: "boolean", short: "h" },
        user: { type: "string" },
        quota: { type: "string" },
        unlimited: { type: "boolean" },
        name: { type: "string" },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command = "serve", ...rest] = parsed.positionals;
  if (parsed.values["help"] === true) {
    io.out(USAGE);
    return 0;
  }
  const tokenCreate = command === "token" && rest.length === 1 && rest[0] === "create";
  if (!(COMMANDS.has(command) && rest.length === 0) && !tokenCreate) {
    io.err(USAGE);
    return 2;
  }
  const file =
    (parsed.values["config"] as string | undefined) ?? (env["INTERLINGUA_CONFIG"] || undefined);
  const resolved = await resolveConfig(file, env);
  if (!resolved.ok) {
    io.err(
      `invalid configuration${file === undefined ? "" : ` in ${file}`} (${resolved.errors.length} error${resolved.errors.length === 1 ? "" : "s"}):`,
    );
    for (const error of resolved.errors) io.err(`  ${error}`);
    return 1;
  }
  if (command === "check") {
    io.out(`configuration OK${file === undefined ? " (embedded defaults)" : `: ${file}`}`);
    return 0;
  }
  if (command === "migrate") return migrateCommand(resolved.config, io);
  if (command === "doctor") return doctorCommand(resolved.config, file, io);
  if (tokenCreate) return createTokenCommand(resolved.config, parsed.values, io);
  let gateway: RunningGateway;
  try {
    gateway = await startGateway(resolved.config, {
      logger: createLogger({
        level: env["LOG_LEVEL"] ?? "info",
        traceIds: resolved.config.tracing.enabled,
      }),
    });
  } catch (error) {
    // One line to act on (the port is taken, the database unreachable), not a stack trace.
    io.err(`interlingua: ${describeStartupFailure(error, resolved.config.database_url)}`);
    return 1;
  }
  io.out(`Interlingua gateway listening on ${gateway.url}`);
  if (gateway.simulatorUrl !== undefined) {
    io.out(`No channels configured: built-in provider simulator at ${gateway.simulatorUrl}`);
  }
  if (gateway.devApiKey !== undefined) io.out(`API key: ${gateway.devApiKey}`);
  else io.out(`API keys: the ${resolved.config.tokens.length} token(s) of the configuration`);
  io.out(
    `Try: curl ${gateway.url}/v1/models -H "Authorization: Bearer ${gateway.devApiKey ?? "<your key>"}"`,
  );
  io.out(`Dashboard: ${gateway.url}/dashboard/ (sign in with an API key)`);
  return gateway;
}

/** Process entry: exits non-zero on a bad config, closes cleanly on SIGINT/SIGTERM. */
export async function main(argv: string[]): Promise<void> {
  const result = await runCli(argv);
  if (typeof result === "number") {
    process.exitCode = result;
    // A start that failed half way may leave a handle open (a pool, a simulator): exit anyway,
    // once the output is written.
    setTimeout(() => process.exit(result), 1_000).unref();
    return;
  }
  // A stray rejection is a bug to report, not a reason to cut every open stream: logged, served on.
  process.on("unhandledRejection", (reason) => {
    result.services.log.error({ err: reason }, "unhandled promise rejection");
  });
  // SIGTERM/SIGINT: stop accepting, drain open streams up to shutdown.drain_ms, flush usage,
  // exit 0. A second signal exits at once.
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    const { drain_ms, unready_ms } = result.config.shutdown;
    void result.close({ drainMs: drain_ms, unreadyMs: unready_ms }).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
