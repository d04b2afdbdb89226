// Text in the XML the site writes (sitemaps, feeds): the five characters XML gives a meaning escaped, and
// the control characters XML 1.0 refuses outright (a pasted description may carry them) left out.

// eslint-disable-next-line no-control-regex -- these are exactly what XML refuses
const refusedByXml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

const entities: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" };

export const escapeXml = (text: string) => text.replace(refusedByXml, "").replace(/[<>&'"]/g, (character) => entities[character]!);
