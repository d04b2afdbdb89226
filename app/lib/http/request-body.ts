/**
 * The most of a refused body that is read (and dropped) so the connection stays usable for the answer:
 * enough for a form a little past its limits; a body far past them is cut off soon, not read on.
 */
const discardedAtMost = 2 * 1024 * 1024;

/**
 * Reads and drops what is left of a request's body before it is answered with a refusal. A server that
 * answers while the client is still sending may have the connection cut under the client, which then never
 * sees the answer; reading the rest (up to 2 MB, past which the connection is given up) lets it arrive.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  await discardRest(request.body.getReader());
}

/** The same, for a body whose reading has begun (`reader` holds it). */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let read = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      read += chunk.value.byteLength;
      if (read > discardedAtMost) break;
    }
  } catch {
    // the client went away: nothing to answer
  } finally {
    await reader.cancel().catch(() => {});
  }
}
