import fc from "fast-check";

// vitest.shared.ts picks the run's seed once and hands it to every worker through FC_SEED, so
// each property in a run replays from the printed seed (a property may still set numRuns).
const seed = Number(process.env["FC_SEED"]);
if (Number.isSafeInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
