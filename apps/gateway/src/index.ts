export type {
  ChannelConfig,
  ConfigInput,
  GatewayConfig,
  TokenConfig,
  UserConfig,
} from "./config/config-schema.ts";
export { configSchema } from "./config/config-schema.ts";
export { loadConfigFile, parseConfigText, validateConfig } from "./config/load-config.ts";
export { main, resolveConfig, runCli } from "./serve-command.ts";
export { type GatewayOptions, type RunningGateway, startGateway } from "./start-gateway.ts";
