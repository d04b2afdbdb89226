import { createContext, useContext } from "react";

/**
 * This response's CSP nonce, which the document's inline scripts carry. Only the server render has it:
 * browsers hide a nonce from the page, so the client has nothing to compare it with.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
