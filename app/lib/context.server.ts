import { createContext } from "react-router";

/**
 * The Worker's bindings and execution context, and the version of the client build its pages link to,
 * set once per request in `workers/app.ts`.
 */
export const cloudflareContext = createContext<{ env: Env; ctx: ExecutionContext; buildVersion: string }>();
