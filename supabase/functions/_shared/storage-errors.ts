// What Storage's errors mean, for the functions that sign stored files.

/** Storage answers a missing object with 400 and statusCode "404" (NoSuchKey). */
export function isMissingObject(error: unknown): boolean {
  const { status, statusCode, code } = error as { status?: number; statusCode?: string; code?: string };
  return status === 404 || statusCode === "404" || code === "NoSuchKey";
}
