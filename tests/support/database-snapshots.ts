// In each test file's worker: where the global setup left the run's migrated databases, for startTestStack.
import { inject } from "vitest";
import { useTestSnapshots } from "@crate/local-supabase/testing";

useTestSnapshots(inject("localStackSnapshots"));
