/** How many characters of client input an error message or its `data` may echo. */
export const CLIP_LENGTH = 200;

/**
 * Client input as an error may quote it: at most `max` characters, then a note of how much was
 * left out. A hostile client must not get a multi-megabyte name echoed back (nor into our logs).
 * Non-strings are shown as JSON (clipped the same way); cut at a UTF-16 boundary, never
 * mid-surrogate pair.
 *
 * @example
 * throw new InvalidParamsError(`Unknown tool: ${clip(name)}`);
 */
export function clip(value: unknown, max = CLIP_LENGTH): string {
  const text = typeof value === 'string' ? value : jsonOf(value);
  if (text.length <= max) return text;
  let end = max;
  // Keep a surrogate pair whole (a lone high surrogate is not valid UTF-16 on the wire).
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…(${text.length - end} more characters)`;
}

/** Like `clip`, but always as JSON: a string keeps its quotes, so `"debug "` shows its space. */
export function clipJson(value: unknown, max = CLIP_LENGTH): string {
  return clip(jsonOf(value), max);
}

/**
 * Client input as an error's `data` may carry it: strings clipped, objects and arrays as clipped
 * JSON text, other primitives as they are.
 */
export function clipValue(value: unknown, max = CLIP_LENGTH): unknown {
  if (typeof value === 'string') return clip(value, max);
  return typeof value === 'object' && value !== null ? clipJson(value, max) : value;
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Too deep or circular: there is nothing useful to quote.
    return typeof value;
  }
}
