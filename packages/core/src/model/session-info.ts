/** The legacy-era session a request belongs to (absent on stateless requests). */
export interface SessionInfo {
  /** `Mcp-Session-Id` on HTTP; undefined on stdio. */
  id?: string;
}
