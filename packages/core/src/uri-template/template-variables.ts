// Type-level reading of an RFC 6570 template, so `@ResourceTemplate({ uriTemplate: 'notes://{id}' })`
// types its handler's first parameter as `{ id: string }`.

/** The operators of RFC 6570 expressions. */
export type TemplateOperator = '+' | '#' | '.' | '/' | ';' | '?' | '&';
/** The expressions of a template: what stands between each `{` and `}`. */
export type TemplateExpressions<S extends string> = S extends `${string}{${infer E}}${infer Rest}` ? E | TemplateExpressions<Rest> : never;
/** The variable specs of one expression's comma list. */
export type TemplateVariableSpecs<S extends string> = S extends `${infer A},${infer B}` ? A | TemplateVariableSpecs<B> : S;

/** The variable specs of a template's simple and reserved (`+`) expansions: always present when the URI matches. */
export type RequiredSpecs<S extends string> =
  TemplateExpressions<S> extends infer E
    ? E extends `+${infer R}`
      ? TemplateVariableSpecs<R>
      : E extends `${TemplateOperator}${string}`
        ? never
        : TemplateVariableSpecs<E & string>
    : never;
/** The variable specs of a template's other expansions (`{?q}`, `{#frag}` …): absent when the URI has none. */
export type OptionalSpecs<S extends string> =
  TemplateExpressions<S> extends infer E
    ? E extends `+${string}`
      ? never
      : E extends `${TemplateOperator}${infer R}`
        ? TemplateVariableSpecs<R>
        : never
    : never;

/** The name of a variable spec (`path*` → `path`, `id:3` → `id`). */
export type VariableName<V> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
/** The value of a variable spec: an exploded one (`path*`) is an array. */
export type VariableValue<V> = V extends `${string}*` ? string[] : string;

/**
 * The variables a URI template yields, by name: exploded variables (`{/path*}`) are arrays,
 * variables of optional expansions (`{?q}`, `{#frag}` …) may be absent.
 *
 * @example
 * type V = TemplateVariables<'notes://{id}{?rev}'>; // { id: string } & { rev?: string }
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[] | undefined>
  : { [V in RequiredSpecs<T> as VariableName<V>]: VariableValue<V> } & { [V in OptionalSpecs<T> as VariableName<V>]?: VariableValue<V> };
