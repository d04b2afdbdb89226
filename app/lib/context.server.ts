import { createContext } from "react-router";

/** The Worker's bindings and execution context, set once per request in `workers/app.ts`. */
export const cloudflareContext = createContext<{ env: Env; ctx: ExecutionContext }>();
