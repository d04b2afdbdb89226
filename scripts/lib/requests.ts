// Requests the benches and the route tests build by hand: multipart bodies of any shape (including ones no
// browser would send), and the cookies a response set, as the next request's Cookie header.

/** One part of a multipart body: a field, or a file when it has a name. */
export function multipartPart(name: string, value: string, file?: { name: string; type: string }): string {
  const filePart = file ? `; filename="${file.name}"\r\nContent-Type: ${file.type}` : "";
  return `Content-Disposition: form-data; name="${name}"${filePart}\r\n\r\n${value}`;
}

/** A multipart body of these parts, and its Content-Type. */
export function multipartBody(parts: string[], boundary: string): { body: string; contentType: string } {
  return {
    body: `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("")}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The cookies a response set (a sign-in, a sign-up), as a Cookie header. */
export function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
