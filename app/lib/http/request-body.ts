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

/**
 * A request's whole body, read as it arrives up to `maxBytes`; null (the rest read and dropped) when it is
 * larger, by its Content-Length or as it comes.
 */
export async function readBounded(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) {
    await discardBody(request);
    return null;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    received += chunk.value.byteLength;
    if (received > maxBytes) {
      await discardRest(reader);
      return null;
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
