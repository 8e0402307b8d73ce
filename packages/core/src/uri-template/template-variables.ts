// Type-level reading of an RFC 6570 template, so `@ResourceTemplate({ uriTemplate: 'notes://{id}' })`
// types its handler's first parameter as `{ id: string }`.

type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';
type Expressions<S extends string> = S extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;
type Split<S extends string> = S extends `${infer A},${infer B}` ? A | Split<B> : S;

// Simple and reserved (`+`) expansions always yield a value when the URI matches; the others may be absent.
type RequiredSpecs<S extends string> =
  Expressions<S> extends infer E ? (E extends `+${infer R}` ? Split<R> : E extends `${Operator}${string}` ? never : Split<E & string>) : never;
type OptionalSpecs<S extends string> =
  Expressions<S> extends infer E ? (E extends `+${string}` ? never : E extends `${Operator}${infer R}` ? Split<R> : never) : never;

type VariableName<V> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
type VariableValue<V> = V extends `${string}*` ? string[] : string;

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
