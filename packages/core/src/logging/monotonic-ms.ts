/**
 * Milliseconds on a monotonic clock with an arbitrary origin, for durations (a request's `ms`, a
 * session's length). `performance.now()` reads the same clock at the same cost per call, but the
 * first read of the `performance` global loads perf_hooks: a millisecond of a stdio server's cold
 * start, spent answering its first request.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1000 + nanoseconds / 1e6;
}
