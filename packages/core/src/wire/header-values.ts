/** Request headers by lower-case name, as Node and most frameworks hand them over. */
export type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;
