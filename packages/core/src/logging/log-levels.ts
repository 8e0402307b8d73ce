/** The MCP (RFC 5424) log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((level, index) => [level, index]));

/** True for one of the eight MCP log levels. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && RANK.has(value);
}

/** True when a message at `level` passes a threshold of `threshold`. */
export function passes(level: LogLevel, threshold: LogLevel): boolean {
  return RANK.get(level)! >= RANK.get(threshold)!;
}
