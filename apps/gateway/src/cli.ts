#!/usr/bin/env node
import { main } from "./serve-command.ts";

await main(process.argv.slice(2));
