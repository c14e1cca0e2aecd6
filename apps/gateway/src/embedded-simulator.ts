/** A running built-in simulator: where it listens, and how to stop it. */
export interface EmbeddedSimulator {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the built-in simulated upstream that a configuration without channels runs against
 * (`pnpm start`, `interlingua serve` with no config). Imported only then: a gateway with channels
 * never loads the simulator, which is an optional dependency.
 */
export async function startEmbeddedSimulator(): Promise<EmbeddedSimulator> {
  let simulator: typeof import("@interlingua/provider-sim");
  try {
    simulator = await import("@interlingua/provider-sim");
  } catch (error) {
    throw new Error(
      "no channels are configured and the built-in simulator (@interlingua/provider-sim) is not installed: configure channels",
      { cause: error },
    );
  }
  return simulator.startProviderSim({ port: 0 });
}
