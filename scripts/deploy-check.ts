// `npm run deploy:check`: both Workers as `wrangler deploy` would publish them (its dry run on the production
// build, built first when stale), with their sizes; fails when either would not deploy. CI runs it.
import { buildIfStale } from "./lib/app-server.ts";
import { measureWorkerBundles, printWorkerBundles } from "./lib/bench-worker-bundle.ts";

buildIfStale();
printWorkerBundles(measureWorkerBundles());
