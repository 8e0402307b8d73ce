/**
 * How start-up messages name a capability declared by a `define*` function rather than a
 * decorated method: there is no `Class.method` to point at, so the call stands in for it.
 * Stored under `DEFINITION_METADATA` on the one-method provider that function builds.
 */
export interface DefinitionSite {
  /** The function, as hints spell it: `defineTool`. */
  readonly label: string;
  /** The call: `defineTool("search")`. */
  readonly owner: string;
}
