import { type UpstreamProtocol, upstreamProtocolSchema } from "@interlingua/core-types";
import { modelCatalogue } from "../catalogue/model-catalogue.ts";
import { type ChannelConfig, channelSchema } from "./config-schema.ts";

/** The key the gateway presents to the built-in simulator (it is not a secret). */
export const SIMULATOR_API_KEY = "sim-key";

/** Kinds of catalogue models the simulator serves (video, images and audio on their protocols). */
const SIMULATED_KINDS = new Set<string>(["text", "video", "image", "speech", "transcription"]);

/**
 * One channel per upstream protocol, all pointing at the simulator, each serving the catalogue's
 * text models of that protocol, so every text endpoint answers for every text model without
 * configuration.
 */
export function simulatedChannels(simulatorUrl: string): ChannelConfig[] {
  return upstreamProtocolSchema.options.map((protocol: UpstreamProtocol) =>
    // The schema fills every setting the simulator does not need (connections, queue time).
    channelSchema.parse({
      name: `sim-${protocol}`,
      protocol,
      base_url: simulatorUrl,
      api_key: SIMULATOR_API_KEY,
      models: modelCatalogue
        .filter((m) => SIMULATED_KINDS.has(m.kind) && m.protocol === protocol)
        .map((m) => m.id),
    }),
  );
}
